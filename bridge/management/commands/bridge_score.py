"""python manage.py bridge_score FILE.pbn [--json] [--method mp|cross-imps|butler] [--scale 1|2]"""

import json

from django.core.management.base import BaseCommand, CommandError

from bridge.engine.offline import score_pbn_text
from bridge.engine.pbn.games import PbnError
from bridge.management.pbn_file import read_pbn_file


class Command(BaseCommand):
    help = (
        "Score a PBN results file offline (one game per board, each with a ScoreTable). The method comes "
        "from the Scoring tag (MP1/MP2, IMP;Cross2, IMP;Butler) unless --method is given."
    )
    # Pure arithmetic on a file: it must work even while other apps' checks fail.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", help="the PBN file to score")
        parser.add_argument("--json", action="store_true", help="print the full result as JSON")
        parser.add_argument(
            "--method", choices=["mp", "cross-imps", "butler"], help="override the Scoring tag"
        )
        parser.add_argument(
            "--scale", type=int, choices=[1, 2], default=2, help="matchpoints per result beaten"
        )

    def handle(self, *args, **options):
        text = read_pbn_file(options["file"])
        try:
            result = score_pbn_text(text, method=options["method"], scale=options["scale"])
        except PbnError as exc:
            raise CommandError(str(exc))
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
            return
        for entry in result["ranking"]:
            points = entry.get("mp", entry.get("imp"))
            percent = "" if entry["pct"] is None else f"{entry['pct']:6.2f}%"
            self.stdout.write(
                f"{entry['place']:>7} {entry['direction'] or '':2} {entry['pair']:>6} {points:>9} {percent}"
            )
