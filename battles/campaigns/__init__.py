"""A campaign (a league) and what runs it.

- ``services/`` (writes): the campaign and its settings, membership, rounds and pairings, a
  round's dates; ``selectors`` (reads, a fixed number of queries, long lists a page at a time);
- the league's settings: ``league_settings`` (each house rule, scoring value and optional rule
  declared once), ``setting_checks`` (their cleaners and roster checks), ``house_rules``
  (applying them: validation, and enforcement against a roster), ``presets`` (size presets),
  ``summary`` (the settings in words);
- ``scoring`` (the campaign's points and tie-breakers, the standings the pages read, the
  recompute job), ``standings`` (the ranking itself, plain Python);
- ``pairing`` (Swiss and rating pairings, a minimum-cost matching); ``roster`` (what a campaign
  reads of a roster);
- pages: ``views`` + ``standings_views`` + ``forms`` + ``urls``, ``charts`` (the standings' SVG
  lines), ``exports`` (CSV), ``confirmations`` (what the page's destructive buttons ask);
- API: ``api`` + ``serializers`` + ``api_urls``.
"""
