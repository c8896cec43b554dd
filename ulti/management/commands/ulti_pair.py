"""python manage.py ulti_pair < round.json: Swiss tables of three for one round (format in ulti/engine/cli.py)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from ulti.engine.cli import CliError, run_pair


class Command(BaseCommand):
    help = (
        'Read {"ruleset", "round", "players": [{"id", "points", "forint", "rating", "byes"}], "met": [[id, id]]} '
        'on stdin and print {"tables": [[id, id, id], ...], "byes": [id, ...]}.'
    )
    # Pure computation on stdin: it must work even while other apps' checks fail.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--explain",
            action="store_true",
            help="also print the repeat count and the notes on every departure from rank order",
        )

    def handle(self, *args, **options):
        try:
            result = run_pair(sys.stdin.read(), explain=options["explain"])
        except CliError as exc:
            raise CommandError(str(exc))
        self.stdout.write(json.dumps(result, ensure_ascii=False))
