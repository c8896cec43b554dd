"""Discipline pages: the director's measures at an event, the committee's consent, the federation's reports."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from federation.access import check, object_or_deny
from federation.models import Federation

from ..forms import DisciplineDecisionForm, MeasureForm
from ..models import DisciplinaryReport, Measure
from ..services import discipline
from .common import act, event_or_404


@login_required
@require_http_methods(["GET", "POST"])
def event_discipline(request, pk):
    event = event_or_404(request, pk, "appeals.view_event_desk")
    form = MeasureForm(request.POST or None, event=event)
    if request.method == "POST":
        check(request, "appeals.take_measure", event)
        d = form.cleaned_data if form.is_valid() else {}
        return act(
            request,
            form,
            lambda: discipline.take_measure(
                event,
                request.user,
                d["person"],
                d["kind"],
                d["reason"],
                session=d["session"],
                percent=d.get("percent"),
                points=d.get("points"),
            ),
            _("Measure recorded."),
            "appeals_discipline",
            event.pk,
        )
    context = {
        "event": event,
        "measures": Measure.objects.filter(event=event).select_related(
            "person", "session", "taken_by", "consent_by"
        ),
        "form": form if request.user.has_perm("appeals.take_measure", event) else None,
        "can_consent": request.user.has_perm("appeals.consent_to_measure", event),
    }
    return render(request, "appeals/discipline.html", context)


@login_required
@require_POST
def measure_consent(request, pk, measure_pk):
    event = event_or_404(request, pk, "appeals.consent_to_measure")
    measure = get_object_or_404(Measure, pk=measure_pk, event=event)
    agrees = request.POST.get("agrees") == "1"
    return act(
        request,
        None,
        lambda: discipline.consent(measure, request.user, agrees),
        _("Your answer is recorded."),
        "appeals_discipline",
        event.pk,
    )


@login_required
@require_POST
def measure_apply(request, pk, measure_pk):
    """Apply a point deduction that could not be applied when it was taken (the results were not in yet)."""
    event = event_or_404(request, pk, "appeals.take_measure")
    measure = get_object_or_404(Measure, pk=measure_pk, event=event)

    def apply():
        with transaction.atomic():  # the lock makes two clicks at once apply it once
            locked = Measure.objects.select_for_update().get(pk=measure.pk)
            if locked.kind != Measure.Kind.POINT_DEDUCTION or locked.status != Measure.Status.IN_FORCE:
                raise ValidationError(_("Only a point deduction in force is applied to the results."))
            if locked.effect:
                raise ValidationError(
                    _("This deduction is already in the results (version %(v)s).") % {"v": locked.effect}
                )
            version = discipline.apply_deduction(locked, request.user)  # records why when it cannot
        if version is None:
            raise ValidationError(_("The deduction could not be applied: the measure's history says why."))

    return act(request, None, apply, _("Deduction applied to the results."), "appeals_discipline", event.pk)


def _federation(request, code):
    """The federation whose reports the user may read; for anybody else it has none (404)."""
    return object_or_deny(
        request, Federation, "appeals.view_reports", visible="appeals.view_reports", code=code
    )


@login_required
def report_list(request, code):
    federation = _federation(request, code)
    reports = DisciplinaryReport.objects.filter(federation=federation).select_related(
        "person", "event", "decision"
    )
    return render(request, "appeals/reports.html", {"federation": federation, "reports": reports})


@login_required
@require_http_methods(["GET", "POST"])
def report_detail(request, code, pk):
    federation = _federation(request, code)
    report = get_object_or_404(
        DisciplinaryReport.objects.select_related(
            "person",
            "event",
            "bridge_exclusion__pair__player1",
            "bridge_exclusion__pair__player2",
            "bridge_exclusion__session",
        ),
        pk=pk,
        federation=federation,
    )
    form = DisciplineDecisionForm(request.POST or None)
    if request.method == "POST":
        check(request, "appeals.decide_discipline", federation)
        d = form.cleaned_data if form.is_valid() else {}
        return act(
            request,
            form,
            lambda: discipline.decide(
                report, request.user, d["outcome"], d["text"], starts_on=d["starts_on"], ends_on=d["ends_on"]
            ),
            _("The Disciplinary Committee's decision is recorded."),
            "appeals_report",
            federation.code,
            report.pk,
        )
    context = {
        "federation": federation,
        "report": report,
        "timeline": report.timeline.select_related("actor"),
        "form": form if report.status == DisciplinaryReport.Status.OPEN else None,
    }
    return render(request, "appeals/report_detail.html", context)
