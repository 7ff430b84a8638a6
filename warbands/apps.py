from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class WarbandsConfig(AppConfig):
    name = "warbands"
    verbose_name = _("Warbands")

    def ready(self) -> None:
        # Imported here: it reads the auth models, which are not loaded when apps.py is.
        from . import tasks  # noqa: F401 - registers the tasks services queue by name
        from .content_editors import sync_after_migrate

        post_migrate.connect(sync_after_migrate, sender=self, dispatch_uid="content_editors")
