"""A campaign (a league) and what runs it.

- ``services/`` (writes): the campaign and its house rules, membership, rounds and pairings, a
  round's dates; ``selectors`` (reads, fixed queries);
- the league's settings: ``house_rules`` (validation and enforcement against a roster),
  ``presets`` (size presets), ``scoring`` (points, bonuses, tie-breakers, the standings the
  pages read and the recompute job), ``standings`` (the ranking itself, plain Python);
- ``pairing`` (Swiss and rating pairings, plain Python); ``roster`` (what a campaign reads of a
  roster);
- pages: ``views`` + ``forms`` + ``urls``, ``charts`` (the standings' SVG lines),
  ``exports`` (CSV), ``confirmations`` (what the page's destructive buttons ask);
- API: ``api`` + ``serializers`` + ``api_urls``.
"""
