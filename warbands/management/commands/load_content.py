"""``manage.py load_content [--path FOLDER] [--force]``: load a content pack (idempotent)."""

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from warbands.content_loader import DEFAULT_PACK_PATH, content_pack_load


class Command(BaseCommand):
    help = "Load a content pack (default: warbands/content, the Annúminas pack); upsert by slug."

    def add_arguments(self, parser):
        parser.add_argument("--path", type=Path, default=DEFAULT_PACK_PATH)
        parser.add_argument(
            "--force", action="store_true", help="Re-apply even when the files did not change."
        )

    def handle(self, *args, **options):
        try:
            result = content_pack_load(path=options["path"], force=options["force"])
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        pack = result.pack
        if not result.changed:
            self.stdout.write(f"{pack.name}: unchanged (revision {pack.version}).")
            return
        summary = ", ".join(f"{count} {name}" for name, count in sorted(result.counts.items()))
        self.stdout.write(
            self.style.SUCCESS(f"{pack.name}: loaded revision {pack.version} ({summary}).")
        )
