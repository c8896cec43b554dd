"""The federation staff's page of the VSz 26 program test: upload a file another program scored, see where
the portal's engine agrees and where it does not (and by which rule). Staff of that federation only."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from federation import pdf
from federation.access import object_or_deny
from federation.models import Federation
from results.upload_input import UploadInputError

from ..models import AcceptedProgram
from ..services import program_check as checks
from ..services import uploads
from .forms import ProgramCheckForm

CHECK_PROGRAM = "bridge.check_program"


def program_check(request, pk):
    federation = object_or_deny(request, Federation, CHECK_PROGRAM, pk=pk)
    form = ProgramCheckForm(request.POST or None, request.FILES or None)
    report, errors = None, []
    if request.method == "POST" and form.is_valid():
        file = form.cleaned_data["file"]
        try:
            report = checks.check_file(file)
            if "pdf" in request.POST:
                data = checks.report_pdf(
                    report, federation=federation, program=form.cleaned_data["program"], file_name=file.name
                )
                return pdf.pdf_bytes_response(
                    data, checks.pdf_name(form.cleaned_data["program"] or file.name), attachment=True
                )
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
        context["differences"] = [(d, checks.RULE_TEXT[d.rule]) for d in report.differences]
        context["pairs"] = [(label, c, checks.RULE_TEXT.get(c.rule, "")) for label, c in report.pairs.items()]
        context["pairs_agree"] = sum(c.agree for c in report.pairs.values())
    return render(request, "bridge/program_check.html", context, status=400 if errors else 200)


def accepted_report(request, pk, accepted_pk):
    """The PDF report stored when the program was accepted: what the federation accepted, unchanged."""
    federation = object_or_deny(request, Federation, CHECK_PROGRAM, pk=pk)
    accepted = get_object_or_404(AcceptedProgram, pk=accepted_pk, federation=federation)
    if not accepted.report_pdf:  # accepted before reports were kept as PDF
        raise Http404
    return pdf.pdf_bytes_response(
        bytes(accepted.report_pdf), checks.pdf_name(accepted.program), attachment=True
    )
