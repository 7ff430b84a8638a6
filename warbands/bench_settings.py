"""Settings for ``bench/bench_sheet.py`` only: the project's settings plus two floor views
(``warbands.bench_urls``: a bare JSON view, and one that checks who asks and reads a warband's
version), so the bench can compare the sheet with Django's own floor. Never
used in production: nothing imports it but the bench's gunicorn command line."""

from annuminas.settings import *  # noqa: F403

ROOT_URLCONF = "warbands.bench_urls"
