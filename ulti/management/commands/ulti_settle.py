"""python manage.py ulti_settle < deal.json: forints per player for one deal or a list of deals."""

import sys

from django.core.management.base import BaseCommand, CommandError

from ulti.engine.scoring.cli import run
from ulti.engine.scoring.errors import ScoringError


class Command(BaseCommand):
    help = (
        "Read one ulti deal (a JSON object) or a list of deals on stdin and print the forints per player; "
        "for a list, the totals. The input format is described in ulti/engine/scoring/cli.py."
    )
    # Pure arithmetic on stdin: it must work even while other apps' checks fail.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--per-deal",
            action="store_true",
            help='for a list of deals print {"deals": [...], "totals": {...}} instead of the totals only',
        )

    def handle(self, *args, **options):
        try:
            output = run(sys.stdin.read(), per_deal=options["per_deal"])
        except ScoringError as exc:
            raise CommandError(str(exc))
        self.stdout.write(output)
