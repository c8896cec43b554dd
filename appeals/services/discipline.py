"""Discipline (VSz 23): the director's measures, reports to the Disciplinary Committee and its decisions.

The director warns, deducts points, excludes from a session on his own; exclusion from the event needs the
Appeals Committee's consent. Serious cases go to the federation's Disciplinary Committee (members hold the
federation's DISCIPLINARY role), whose members record its decisions; a suspension of playing rights becomes
a `federation.Suspension`, which the entry checks then enforce (VSz 6).

A point deduction in force is applied to the results at once (`appeals.effects.apply_measure`): a new
result version of the game, with the director as its author and the measure's reason as its note, and the
same recompute as any correction; an exclusion from the event does so only once the committee consents.
"""

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from federation.models import Role, Suspension
from federation.services.notifications import absolute_url, addresses_of, notify
from tournaments.models import Entry

from .. import effects
from ..models import CommitteeMember, DisciplinaryDecision, DisciplinaryReport, Measure, TimelineEntry
from . import timeline
from .common import PLAYED

A = TimelineEntry.Action
K = Measure.Kind


def _committee_emails(federation_id):
    """The Disciplinary Committee's members, and the staff who forward its mail."""
    return timeline.role_addresses(
        Role.objects.filter(kind__in=(Role.DISCIPLINARY, Role.FEDERATION_STAFF), federation_id=federation_id)
    )


def _committee_name():
    with translation.override(settings.LANGUAGE_CODE):
        return str(_("Disciplinary Committee"))


@transaction.atomic
def take_measure(event, user, person, kind, reason, *, session=None, percent=None, points=None) -> Measure:
    if not Entry.objects.filter(event=event, status__in=PLAYED, members__person=person).exists():
        raise ValidationError({"person": _("%(person)s does not play in this event.") % {"person": person}})
    if session is not None and session.event_id != event.pk:
        raise ValidationError({"session": _("The session belongs to another event.")})
    ulti = event.federation.game == "ulti"
    if kind == K.POINT_DEDUCTION and ulti and not points:
        raise ValidationError(_("A point deduction at an ulti event gives the table points to deduct."))
    if kind == K.POINT_DEDUCTION and not ulti and not percent:
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
        percent=percent if kind == K.POINT_DEDUCTION and not ulti else None,
        points=points if kind == K.POINT_DEDUCTION and ulti else None,
        reason=reason,
        status=Measure.Status.AWAITING_CONSENT if kind in Measure.NEEDS_CONSENT else Measure.Status.IN_FORCE,
        taken_by=user,
    )
    if kind == K.REPORT:
        report(event.federation, person, user, reason, event=event, measure=measure)
    if kind == K.POINT_DEDUCTION:
        apply_deduction(measure, user)
    return measure


def apply_deduction(measure, user) -> str | None:
    """Deduct a measure's points from the results as a new version (the game's recompute follows).

    Returns the version, or None when it could not be applied (no handler for the game, or the results
    refuse it, e.g. not uploaded yet): the measure stays in force and the timeline says why, so the director
    applies it by hand.
    """
    measure = Measure.objects.select_related("event__federation", "person", "taken_by").get(pk=measure.pk)
    try:
        with transaction.atomic():
            version = effects.apply_measure(measure)
    except ValidationError as error:
        timeline.record_measure(measure, A.NO_EFFECT, user, " ".join(error.messages))
        return None
    if version is None:
        timeline.record_measure(
            measure,
            A.NO_EFFECT,
            user,
            _("The results of this game are not changed automatically: the director applies the deduction."),
        )
        return None
    measure.effect = version
    measure.save(update_fields=["effect"])
    if measure.points:
        note = _("%(points)s table points from %(person)s; result version %(v)s.") % {
            "points": measure.points,
            "person": measure.person,
            "v": version,
        }
    else:
        note = _("%(percent)s%% of the top from %(person)s; result version %(v)s.") % {
            "percent": measure.percent,
            "person": measure.person,
            "v": version,
        }
    timeline.record_measure(measure, A.DEDUCTED, user, note)
    return version


@transaction.atomic
def consent(measure, user, agrees: bool) -> Measure:
    """A committee member of the event consents to (or refuses) an exclusion from the event (VSz 23)."""
    measure = Measure.objects.select_for_update().get(pk=measure.pk)
    if not CommitteeMember.objects.filter(
        committee__event=measure.event_id, user=user, is_alternate=False, left_at__isnull=True
    ).exists():
        raise PermissionDenied
    if measure.status != Measure.Status.AWAITING_CONSENT:
        raise ValidationError(_("This measure does not wait for consent."))
    measure.status = Measure.Status.IN_FORCE if agrees else Measure.Status.REFUSED
    measure.consent_by = user
    measure.consent_at = timezone.now()
    measure.save(update_fields=["status", "consent_by", "consent_at"])
    if (
        agrees
        and measure.kind == K.EVENT_EXCLUSION
        and not DisciplinaryReport.objects.filter(measure=measure)
    ):
        # VSz 23: an exclusion from the event is a serious breach the director must report to the
        # Disciplinary Committee; the event's directors hear of it with the committee and the staff.
        event = measure.event
        report(
            event.federation,
            measure.person,
            measure.taken_by,
            measure.reason,
            event=event,
            measure=measure,
            extra=timeline.director_emails(event.pk),
        )
    return measure


def report(federation, person, user, text, *, event=None, measure=None, extra=()) -> DisciplinaryReport:
    """A case for the Disciplinary Committee, mailed to the player, the committee, the staff and `extra`."""
    with transaction.atomic():
        found = DisciplinaryReport.objects.create(
            federation=federation, event=event, measure=measure, person=person, text=text, reported_by=user
        )
        recipients = list(dict.fromkeys([*_committee_emails(federation.pk), *extra]))
        timeline.record_report(found, A.REPORTED, user, text, recipients=recipients)
    return found


@transaction.atomic
def report_event_exclusion(exclusion, user) -> list[DisciplinaryReport]:
    """VSz 23: a bridge pair excluded from the whole event (with the Appeals Committee's consent) is a serious
    breach the director must report to the federation's Disciplinary Committee. One case per player of the
    pair, each naming the exclusion (so its event, pair and session); one mail to the players, one to the
    event's directors, the federation's staff and the committee. Registered with `bridge.exclusion_reports`
    by `AppealsConfig.ready()`; a second call for the same exclusion opens nothing."""
    if DisciplinaryReport.objects.filter(bridge_exclusion=exclusion).exists():
        return []
    event = exclusion.session.event
    pair = exclusion.pair
    players = [p for p in (pair.player1, pair.player2) if p is not None]
    with translation.override(settings.LANGUAGE_CODE):
        ctx = {
            "pair": pair.display_name,
            "event": event.title,
            "date": formats.date_format(event.start_date, "Y. m. d."),
            "session": exclusion.session,
            "reason": exclusion.reason,
            "consent": exclusion.committee_consent,
            "federation": event.federation.short_name or event.federation.name,
        }
        text = (
            _(
                "%(pair)s was excluded from the whole event %(event)s (%(date)s) in %(session)s (VSz 23).\n"
                "Reason: %(reason)s\nConsent of the Appeals Committee: %(consent)s"
            )
            % ctx
        )
        reports = [
            DisciplinaryReport.objects.create(
                federation=event.federation,
                event=event,
                person=person,
                bridge_exclusion=exclusion,
                text=text,
                reported_by=user,
            )
            for person in players
        ]
        for found in reports:
            timeline.record_report(found, A.REPORTED, user, text, mail=False)
        subject = _("Exclusion from %(event)s reported to the Disciplinary Committee") % ctx
        closing = (
            _(
                "The case is reported to the Disciplinary Committee of %(federation)s, which proceeds in its own "
                "competence (VSz 23)."
            )
            % ctx
        )
        notify(
            addresses_of(players),
            subject,
            "\n\n".join((text, closing, absolute_url("event_detail", event.pk))),
            federation=event.federation_id,
        )
        officials = list(
            dict.fromkeys(timeline.director_emails(event.pk) + _committee_emails(event.federation_id))
        )
        links = [absolute_url("appeals_report", event.federation.code, found.pk) for found in reports]
        notify(officials, subject, "\n\n".join((text, closing, *links)), federation=event.federation_id)
    return reports


@transaction.atomic
def decide(report, user, outcome, text, *, starts_on=None, ends_on=None) -> DisciplinaryDecision:
    """The Disciplinary Committee's decision, recorded by one of its members (VSz 23)."""
    report = DisciplinaryReport.objects.select_for_update().select_related("federation").get(pk=report.pk)
    if not user.has_perm("appeals.decide_discipline", report.federation):
        raise PermissionDenied
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
