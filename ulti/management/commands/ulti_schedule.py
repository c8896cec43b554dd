"""python manage.py ulti_schedule --players N --json: an all-play-all schedule for tables of three."""

import json

from django.core.management.base import BaseCommand, CommandError

from ulti.engine.cli import CliError, run_schedule


class Command(BaseCommand):
    help = (
        "Print the all-play-all schedule for N players (numbered 1..N): a Kirkman schedule for 9, 15, 21, ... "
        "players, otherwise the fewest repeated meetings found. With --json stdout is a plain JSON list of "
        "rounds of tables; the repeat count and byes go to stderr."
    )
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, help="number of players (at least 3)")
        parser.add_argument("--rounds", type=int, default=None, help="rounds to play (default: all-play-all)")
        parser.add_argument("--json", action="store_true", help="print JSON instead of a readable table")

    def handle(self, *args, **options):
        try:
            rounds, summary = run_schedule(options["players"], options["rounds"])
        except CliError as exc:
            raise CommandError(str(exc))
        kind = (
            "Kirkman schedule, no repeated meetings"
            if summary["kirkman"]
            else (
                f"{summary['repeats']} repeated meeting(s), {summary['missing']} pair(s) never meet "
                f"(no schedule can have fewer than {summary['lower_bound']} repeats)"
            )
        )
        if options["json"]:
            self.stdout.write(json.dumps(rounds))
            self.stderr.write(json.dumps(summary))
            return
        self.stdout.write(f"{summary['players']} players, {summary['rounds']} rounds: {kind}")
        for i, rnd in enumerate(rounds, start=1):
            tables = "  ".join("-".join(str(p) for p in t) for t in rnd)
            byes = summary["byes"][i - 1]
            tail = f"  (bye: {', '.join(map(str, byes))})" if byes else ""
            self.stdout.write(f"round {i:2d}: {tables}{tail}")
