"""The federation staff's page of the VSz 26 program test: upload a file another program scored, see where
the portal's engine agrees and where it does not (and by which rule). Staff of that federation only."""

from django.contrib import messages
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from federation.access import object_or_deny
from federation.models import Federation
from results.upload_input import UploadInputError

from ..models import AcceptedProgram
from ..services import program_check as checks
from ..services import uploads
from .forms import ProgramCheckForm

CHECK_PROGRAM = "bridge.check_program"

# The rules in the reader's language (the engine's keys, English text in RULES for the command).
RULE_TEXT = {
    "neuberg": _(
        "VSz 28: a board played fewer times is scaled to the full top by Neuberg's formula; theirs are raw "
        "matchpoints on the reduced top"
    ),
    "proportional": _("VSz 28: Neuberg's formula (N x T + N - n) / n, not a plain proportion of the top"),
    "rounding": _("VSz 26: by computer every value is rounded to hundredths, half up (0.005 rounds up)"),
    "precision": _("VSz 26: by computer every value is kept to hundredths; theirs are rounded coarser"),
    "average_plus": _(
        "VSz 29: average-plus is 60 per cent of the top, or the pair's session average if higher"
    ),
    "unrounded_total": _(
        "VSz 26: a pair's total is the sum of its boards' rounded values; theirs is summed from unrounded "
        "board values"
    ),
    "follows": _("follows from the differences on the pair's boards"),
    "missing": _("the pair is missing from one of the two rankings"),
    "unexplained": _("no known rule explains it: a scoring error or a different reading of the result"),
}


def program_check(request, pk):
    federation = object_or_deny(request, Federation, CHECK_PROGRAM, pk=pk)
    form = ProgramCheckForm(request.POST or None, request.FILES or None)
    report, errors = None, []
    if request.method == "POST" and form.is_valid():
        file = form.cleaned_data["file"]
        try:
            report = checks.check_file(file)
            if form.cleaned_data["accept"]:
                checks.accept(
                    federation, form.cleaned_data["program"], report, user=request.user, file_name=file.name
                )
                messages.success(
                    request,
                    _("%(program)s is recorded as accepted.") % {"program": form.cleaned_data["program"]},
                )
        except (uploads.UploadError, UploadInputError) as error:
            errors = error.messages
    accepted = AcceptedProgram.objects.filter(federation=federation).select_related("accepted_by")[:50]
    context = {
        "federation": federation,
        "form": form,
        "errors": errors,
        "report": report,
        "accepted": accepted,
    }
    if report is not None:
        context["differences"] = [(d, RULE_TEXT[d.rule]) for d in report.differences]
        context["pairs"] = [(label, c, RULE_TEXT.get(c.rule, "")) for label, c in report.pairs.items()]
        context["pairs_agree"] = sum(c.agree for c in report.pairs.values())
    return render(request, "bridge/program_check.html", context, status=400 if errors else 200)
