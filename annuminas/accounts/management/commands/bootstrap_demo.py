"""Load the default content pack and the demo account with its demo content: a warband and a
league with a round played (``battles.demo.league``). Idempotent."""

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.test.utils import override_settings

from annuminas.accounts.services import demo_user_ensure
from battles.demo.league import demo_league_ensure
from warbands.demo import demo_content_ensure


class Command(BaseCommand):
    help = "Load the default content pack, the demo account and demo content (idempotent)."

    def handle(self, *args, **options):
        call_command("load_content", verbosity=options["verbosity"])
        user = demo_user_ensure(
            username=settings.DEMO_USERNAME,
            password=settings.DEMO_PASSWORD,
            email="demo@example.com",
        )
        warband = demo_content_ensure(user=user)
        if warband is not None:  # the default pack is loaded: a league to explore too
            # The league's past is not mailed to anyone (in development the console would print
            # each message); its notifications are in the app.
            with override_settings(EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend"):
                demo_league_ensure(user=user, warband=warband)
        self.stdout.write(
            self.style.SUCCESS(f"Demo login: {settings.DEMO_USERNAME} / {settings.DEMO_PASSWORD}")
        )
