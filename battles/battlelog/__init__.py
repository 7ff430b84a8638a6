"""Battle day: the setup, the log written at the table, its state and the report.

``services`` (writes, one battle lock each) · ``selectors`` (reads) · ``api`` + ``api_urls`` (the
REST contract) · ``views`` + ``urls`` (the phone page). The rules live in
:mod:`rules.engine.tracker`.
"""
