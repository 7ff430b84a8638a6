"""The Annúminas Django project: settings, URLs, the Celery app, accounts and site pages."""

from .celery import app as celery_app

__all__ = ("celery_app",)
