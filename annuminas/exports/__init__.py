"""Whole-data exports as JSON: an organiser's campaign (``campaign.py``) and a player's account
(``account.py``), served as a download on the pages and as JSON on the API (``views.py``).

Both are reads (selectors): each gathers its rows in a fixed number of queries, whatever the
size of the campaign or the account, and answers plain JSON data with a ``format`` name and a
``format_version`` so that a reader can tell what it holds. Neither carries a credential: no
password hash, API token, calendar token, share token or webhook secret.
"""
