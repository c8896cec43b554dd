"""Discipline (VSz 23): the director's measures, reports to the Disciplinary Committee and its decisions.

The director warns, deducts points, excludes from a session on his own; exclusion from the event needs the
Appeals Committee's consent. Serious cases go to the federation's Disciplinary Committee, whose decision is
recorded by the federation staff (the portal has no role of its own for that committee); a suspension of
playing rights becomes a `federation.Suspension`, which the entry checks then enforce (VSz 6).
"""

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from federation.models import Role, Suspension
from tournaments.models import Entry

from ..models import CommitteeMember, DisciplinaryDecision, DisciplinaryReport, Measure, TimelineEntry
from . import timeline
from .common import PLAYED

A = TimelineEntry.Action
K = Measure.Kind


def _staff_emails(federation_id):
    return list(
        Role.objects.filter(kind=Role.FEDERATION_STAFF, federation_id=federation_id).values_list(
            "user__email", flat=True
        )
    )


def _committee_name():
    with translation.override(settings.LANGUAGE_CODE):
        return str(_("Disciplinary Committee"))


@transaction.atomic
def take_measure(event, user, person, kind, reason, *, session=None, percent=None) -> Measure:
    if not Entry.objects.filter(event=event, status__in=PLAYED, members__person=person).exists():
        raise ValidationError(_("%(person)s does not play in this event.") % {"person": person})
    if session is not None and session.event_id != event.pk:
        raise ValidationError(_("The session belongs to another event."))
    if kind == K.POINT_DEDUCTION and not percent:
        raise ValidationError(_("A point deduction gives the percentage of the top."))
    if kind == K.SESSION_EXCLUSION and session is None:
        raise ValidationError(_("Name the session the player is excluded from."))
    if not reason.strip():
        raise ValidationError(_("Give the reason for the measure."))
    measure = Measure.objects.create(
        event=event,
        session=session,
        person=person,
        kind=kind,
        percent=percent if kind == K.POINT_DEDUCTION else None,
        reason=reason,
        status=Measure.Status.AWAITING_CONSENT if kind in Measure.NEEDS_CONSENT else Measure.Status.IN_FORCE,
        taken_by=user,
    )
    if kind == K.REPORT:
        report(event.federation, person, user, reason, event=event, measure=measure)
    return measure


@transaction.atomic
def consent(measure, user, agrees: bool) -> Measure:
    """A committee member of the event consents to (or refuses) an exclusion from the event (VSz 23)."""
    measure = Measure.objects.select_for_update().get(pk=measure.pk)
    if not CommitteeMember.objects.filter(
        committee__event=measure.event_id, user=user, is_alternate=False
    ).exists():
        raise PermissionDenied
    if measure.status != Measure.Status.AWAITING_CONSENT:
        raise ValidationError(_("This measure does not wait for consent."))
    measure.status = Measure.Status.IN_FORCE if agrees else Measure.Status.REFUSED
    measure.consent_by = user
    measure.consent_at = timezone.now()
    measure.save(update_fields=["status", "consent_by", "consent_at"])
    return measure


def report(federation, person, user, text, *, event=None, measure=None) -> DisciplinaryReport:
    with transaction.atomic():
        found = DisciplinaryReport.objects.create(
            federation=federation, event=event, measure=measure, person=person, text=text, reported_by=user
        )
        timeline.record_report(found, A.REPORTED, user, text, recipients=_staff_emails(federation.pk))
    return found


@transaction.atomic
def decide(report, user, outcome, text, *, starts_on=None, ends_on=None) -> DisciplinaryDecision:
    report = DisciplinaryReport.objects.select_for_update().get(pk=report.pk)
    if report.status != DisciplinaryReport.Status.OPEN:
        raise ValidationError(_("This report has been decided."))
    suspension = None
    if outcome == DisciplinaryDecision.Outcome.SUSPENSION:
        if starts_on is None:
            raise ValidationError(_("A suspension gives its first day."))
        suspension = Suspension(
            person=report.person,
            federation=report.federation,
            starts_on=starts_on,
            ends_on=ends_on,
            reason=text,
            decided_by=_committee_name(),
        )
        suspension.full_clean()
        suspension.save()
    decision = DisciplinaryDecision.objects.create(
        report=report, outcome=outcome, text=text, suspension=suspension, recorded_by=user
    )
    report.status = DisciplinaryReport.Status.DECIDED
    report.save(update_fields=["status"])
    timeline.record_report(report, A.DISCIPLINE, user, f"{decision.get_outcome_display()}: {text}")
    return decision
