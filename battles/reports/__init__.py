"""A battle and its report: report, confirm, dispute, settle, correct.

``services`` (writes: one ``open_battle`` gate each, ``battles.common.writes``), ``check`` (the
pure check of a report, returning a typed plan), ``selectors`` (a battle with its people and
events), ``views`` + ``forms`` + ``urls`` (the battle page and its report form), ``api`` +
``serializers`` + ``api_urls`` (``/api/v1/battles/``).
"""
