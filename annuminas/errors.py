"""Domain errors that services raise; the edges (API handler, pages, admin) map them.

Services never raise DRF exceptions: a ``Conflict`` here is a plain exception, and
``annuminas.api.errors.exception_handler`` turns it into a 409 in the one error shape. Pages
catch it and show ``str(error)``. Validation problems are Django's ``ValidationError`` (→ 400) and
refusals are Django's ``PermissionDenied`` (→ 403).
"""

from django.utils.translation import gettext_lazy as _


class Conflict(Exception):
    """The target changed since the client read it (stale ``version``), or a state clash (409)."""

    default_message = _("The resource was changed by someone else; reload it and try again.")
    default_code = "conflict"

    def __init__(self, message=None, code: str | None = None, **recovery):
        """``code``: the stable name of this refusal (the API's catalogue,
        ``annuminas.api.error_codes``); ``recovery``: what a client needs to recover, answered
        beside it (``version=`` the current version, ``last_seq=`` the log's last entry)."""
        self.message = message if message is not None else self.default_message
        self.code = code or self.default_code
        self.recovery = recovery
        super().__init__(str(self.message))

    @property
    def detail(self) -> str:
        """The player-readable message (kept under DRF's name for the pages that read it)."""
        return str(self.message)

    def __str__(self) -> str:
        return str(self.message)
