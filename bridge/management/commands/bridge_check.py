"""python manage.py bridge_check FILE.pbn|FILE.xml [--json] [--scale 1|2] [--pdf OUT.pdf]: the VSz 26 program
test."""

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from bridge.engine.pbn.games import PbnError
from bridge.engine.pbn.usebio_reader import UsebioError
from bridge.engine.program_check import RULES, as_json, check_text
from bridge.management.pbn_file import read_pbn_file
from bridge.services.program_check import report_pdf


class Command(BaseCommand):
    help = (
        "Re-score a PBN file scored by another program (its MP_NS / MP_EW, Percentage_NS / Percentage_EW or "
        "IMP_NS / IMP_EW columns), or a USEBIO 1.2 XML file (its NS_MATCH_POINTS / EW_MATCH_POINTS), with the "
        "portal's engine and report every line and pair that differs."
    )
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", help="the PBN or USEBIO file scored by the other program")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")
        parser.add_argument("--scale", type=int, choices=[1, 2], help="matchpoints per result beaten")
        parser.add_argument(
            "--pdf", metavar="OUT", help="also write the PDF report (in the portal's language) to OUT"
        )
        parser.add_argument("--program", default="", help="the program and version, named in the PDF report")

    def handle(self, *args, **options):
        text = read_pbn_file(options["file"])
        try:
            report = check_text(text, scale=options["scale"])
        except (PbnError, UsebioError) as exc:
            raise CommandError(str(exc))
        if options["pdf"]:
            with translation.override(settings.LANGUAGE_CODE):
                data = report_pdf(report, program=options["program"], file_name=Path(options["file"]).name)
            Path(options["pdf"]).write_bytes(data)
        if options["json"]:
            self.stdout.write(json.dumps(as_json(report), ensure_ascii=False, indent=2))
            return
        for warning in report.warnings:
            self.stdout.write(f"warning: {warning}")
        self.stdout.write(f"lines: {report.lines}, agree: {report.agree}")
        for d in report.differences:
            self.stdout.write(
                f"line {d.line}: board {d.board} {d.ns}-{d.ew} {d.column}: theirs {d.theirs}, ours {d.ours}"
                f" ({RULES[d.rule]})"
            )
        pairs_agree = sum(c.agree for c in report.pairs.values())
        self.stdout.write(f"pairs: {len(report.pairs)}, agree: {pairs_agree}")
        for label, c in report.pairs.items():
            if not c.agree:
                self.stdout.write(
                    f"pair {label}: theirs {c.theirs} ({c.theirs_pct}%), ours {c.ours} ({c.ours_pct}%)"
                    f" ({RULES[c.rule]})"
                )
        self.stdout.write(f"verdict: {report.verdict}")
