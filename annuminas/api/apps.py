from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "annuminas.api"
    label = "api"
    verbose_name = _("API")

    def ready(self) -> None:
        from . import signals  # noqa: F401 - tokens revoked with the password or the account
        from .timestamps import answer_in_utc

        answer_in_utc()
