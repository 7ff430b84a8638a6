"""``manage.py check_ledger``: prove every warband's treasury and finds equal its ledger's sums."""

from django.core.management.base import BaseCommand, CommandError

from warbands.selectors import ledger_mismatches


class Command(BaseCommand):
    help = "Check that every warband's treasury and finds equal the sums of its ledger."

    def handle(self, *args, **options):
        mismatches = ledger_mismatches()
        for row in mismatches:
            self.stderr.write(
                f"warband {row['id']} “{row['name']}”: treasury {row['treasury']} vs ledger "
                f"{row['ledger_treasury']}, finds {row['finds']} vs ledger {row['ledger_finds']}"
            )
        if mismatches:
            raise CommandError(f"{len(mismatches)} warband(s) disagree with their ledger.")
        self.stdout.write(
            self.style.SUCCESS("Every warband's treasury and finds match its ledger.")
        )
