"""The VSz 26 program test on the portal: a file another program scored, re-scored and compared.

The comparison is the engine's (`bridge.engine.program_check`); this reads the uploaded file (size limit,
Hungarian decoding) and turns a refusal into the upload's error with its line. Nothing is written.
"""

from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from bridge.engine.pbn.games import PbnError
from bridge.engine.pbn.usebio_reader import UsebioError
from bridge.engine.program_check import CheckReport, as_json, check_text
from federation import pdf
from results.upload_input import read_upload_text

from ..models import AcceptedProgram
from .uploads import UploadError

# The rules in the reader's language (the engine's keys; RULES holds the English text of --json).
RULE_TEXT = {
    "neuberg": gettext_lazy(
        "VSz 28: a board played fewer times is scaled to the full top by Neuberg's formula; theirs are raw "
        "matchpoints on the reduced top"
    ),
    "proportional": gettext_lazy(
        "VSz 28: Neuberg's formula (N x T + N - n) / n, not a plain proportion of the top"
    ),
    "rounding": gettext_lazy(
        "VSz 26: by computer every value is rounded to hundredths, half up (0.005 rounds up)"
    ),
    "precision": gettext_lazy(
        "VSz 26: by computer every value is kept to hundredths; theirs are rounded coarser"
    ),
    "average_plus": gettext_lazy(
        "VSz 29: average-plus is 60 per cent of the top, or the pair's session average if higher"
    ),
    "unrounded_total": gettext_lazy(
        "VSz 26: a pair's total is the sum of its boards' rounded values; theirs is summed from unrounded "
        "board values"
    ),
    "follows": gettext_lazy("follows from the differences on the pair's boards"),
    "missing": gettext_lazy("the pair is missing from one of the two rankings"),
    "unexplained": gettext_lazy(
        "no known rule explains it: a scoring error or a different reading of the result"
    ),
}


def check_file(file) -> CheckReport:
    """The report of an uploaded PBN or USEBIO file (UploadInputError: size, encoding; UploadError: the
    content)."""
    text = read_upload_text(file)
    try:
        return check_text(text)
    except (PbnError, UsebioError) as error:
        raise UploadError([_("line %(line)s: %(message)s") % {"line": error.line, "message": error.message}])


def accept(federation, program: str, report: CheckReport, *, user, file_name: str = "") -> AcceptedProgram:
    """Record the program as accepted by the federation with its report; only a program that passed."""
    program = program.strip()
    errors = []
    if not program:
        errors.append(_("name the program and its version to record it as accepted"))
    if not report.passed:
        errors.append(_("a program whose scores differ from the portal's cannot be recorded as accepted"))
    if errors:
        raise UploadError(errors)
    return AcceptedProgram.objects.create(
        federation=federation,
        program=program,
        file_name=file_name[:255],
        report=as_json(report),
        report_pdf=report_pdf(report, federation=federation, program=program, file_name=file_name),
        accepted_by=user,
    )


def accepted_names(federation_id: int) -> list[str]:
    """The programs (with version) the federation has accepted, for the announcement form (VSz 26)."""
    return list(
        AcceptedProgram.objects.filter(federation_id=federation_id)
        .values_list("program", flat=True)
        .distinct()
    )


DIRECTIONS = {"NS": gettext_lazy("NS"), "EW": gettext_lazy("EW")}


def pdf_name(program: str) -> str:
    return f"programteszt-{slugify(program)[:60] or 'jelentes'}.pdf"


def _value(value) -> str:
    return "–" if value is None else pdf.cell_text(value)


def report_pdf(report: CheckReport, *, federation=None, program: str = "", file_name: str = "") -> bytes:
    """The report as the federation files it: verdict, counts, every line and pair that differs with its
    rule, the warnings; in the active language."""
    subtitle = pdf.line(federation.name if federation else "", program, file_name, timezone.localdate())
    pairs_agree = sum(c.agree for c in report.pairs.values())
    verdict = _("passes: every line and pair agrees") if report.passed else _("fails: the scores differ")
    blocks = [
        pdf.Paragraph(verdict, size=12, bold=True),
        pdf.Paragraph(
            _("Lines: %(agree)s of %(lines)s agree") % {"agree": report.agree, "lines": report.lines}
            + " · "
            + _("Pairs: %(agree)s of %(total)s agree") % {"agree": pairs_agree, "total": len(report.pairs)}
        ),
        pdf.Paragraph(_("Compared columns:") + " " + ", ".join(report.compared_columns)),
    ]
    if report.warnings:
        blocks.append(pdf.Heading(_("Warnings")))
        blocks.extend(pdf.Paragraph(str(w), size=9) for w in report.warnings)
    if report.differences:
        blocks.append(
            pdf.Table(
                headers=[_("Line"), _("Board"), _("Pairs"), _("Column"), _("Theirs"), _("Ours"), _("Rule")],
                rows=[
                    [
                        d.line or "",
                        d.board,
                        f"{d.ns} – {d.ew}",
                        d.column,
                        _value(d.theirs),
                        _value(d.ours),
                        str(RULE_TEXT[d.rule]),
                    ]
                    for d in report.differences
                ],
                widths=[5, 10, 9, 11, 8, 9, 48],
                align="RRLLRRL",
                title=_("Lines that differ"),
                font_size=8,
            )
        )
    blocks.append(
        pdf.Table(
            headers=[_("Pair"), _("Theirs"), _("Ours"), _("Theirs") + " %", _("Ours") + " %", _("Rule")],
            rows=[
                [
                    f"{c.pair} {DIRECTIONS.get(c.direction, c.direction)}" if c.direction else c.pair,
                    _value(c.theirs),
                    _value(c.ours),
                    _value(c.theirs_pct),
                    _value(c.ours_pct),
                    "" if c.agree else str(RULE_TEXT.get(c.rule, "")),
                ]
                for c in report.pairs.values()
            ],
            widths=[10, 9, 9, 9, 9, 54],
            align="LRRRRL",
            title=_("Pairs"),
            font_size=8,
        )
    )
    return pdf.document(_("Program test (VSz 26)"), subtitle, blocks)
