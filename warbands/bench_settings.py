"""Settings for ``bench/bench_sheet.py`` only: the project's settings plus a bare JSON view
(``warbands.bench_urls``), so the bench can compare the sheet with Django's own floor. Never
used in production: nothing imports it but the bench's gunicorn command line."""

from annuminas.settings import *  # noqa: F403

ROOT_URLCONF = "warbands.bench_urls"
