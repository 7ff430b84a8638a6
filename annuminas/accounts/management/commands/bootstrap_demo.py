"""Load the default content pack and the demo account (and its demo content). Idempotent."""

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from annuminas.accounts.services import demo_user_ensure
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
        demo_content_ensure(user=user)
        self.stdout.write(
            self.style.SUCCESS(f"Demo login: {settings.DEMO_USERNAME} / {settings.DEMO_PASSWORD}")
        )
