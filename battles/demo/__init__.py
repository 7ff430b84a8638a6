"""Legal campaign data built through the services: ``seeding`` (warbands, a round reported,
confirmed and applied in-process) for ``league`` (the demo league ``bootstrap_demo`` builds for
``make run``) and for ``manage.py seed_fuzz`` (data for schema fuzzing)."""
