"""Translation marker for the engine's human-readable messages.

The engine never imports Django, yet every explanation it produces must be translatable by the
Django layer. Each message template is wrapped in :func:`gettext_noop`, which Django's
``makemessages`` recognises as a keyword, so the templates land in the ``.po`` catalogue. The
engine keeps the English template and its ``%(name)s`` parameters apart; the web layer renders
them with ``gettext(template) % params``.
"""


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it (a no-op at run time)."""
    return message
