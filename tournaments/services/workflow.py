"""The calendar workflow: draft, submit, propose / approve / return, move, cancel; every step in the history.

A club admin drafts an announcement and submits it; federation staff approve it (it enters the public
calendar), include a next-year event in the proposed calendar first, return it with a reason or move its
date; the organiser (or staff) may cancel it. Entrants hear of moves and cancellations.
"""

import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.models import MailPreference, Role
from federation.services.notifications import absolute_url, address_of, notify

from .. import session_starts
from ..models import Event, EventChange
from ..refusals import Refused
from . import directors, history, mail
from .entries import fill_places, lock_event

Status = Event.Status
Action = EventChange.Action

# What the announcement must state before it can be submitted (VSz 4).
REQUIRED_FIELDS = (
    "event_class",
    "venue",
    "venue_address",
    "organiser_name",
    "organiser_address",
    "organiser_phone",
    "director_name",
    "entry_deadline",
    "boards",
    "prizes",
)


def announcement_gaps(event) -> list[str]:
    """The names of what the announcement still lacks; empty when it can be submitted."""
    missing = [
        str(Event._meta.get_field(name).verbose_name) for name in REQUIRED_FIELDS if not getattr(event, name)
    ]
    if event.federation.game == event.federation.BRIDGE and event.masterpoint_multiplier is None:
        missing.append(str(Event._meta.get_field("masterpoint_multiplier").verbose_name))
    if event.federation.game == event.federation.ULTI and not event.rule_set:
        missing.append(str(Event._meta.get_field("rule_set").verbose_name))
    if not event.sessions.exists():
        missing.append(_("start time of each session"))
    return missing


def can_edit(user, event) -> bool:
    if event.status == Status.CANCELLED:
        return False
    if user.has_perm("tournaments.review_event", event):
        return True
    return user.has_perm("tournaments.change_event", event) and event.status in (
        Status.DRAFT,
        Status.RETURNED,
    )


def _snapshot(event):
    data = model_to_dict(event, exclude=["id", "created_by", "published_at"])
    data["sessions"] = [
        f"{s.name} {timezone.localtime(s.starts_at):%Y-%m-%d %H:%M}" for s in event.sessions.all()
    ]
    data["divisions"] = [d.name for d in event.divisions.all()]
    return data


@transaction.atomic
def save_announcement(user, form, formsets) -> Event:
    """Create or edit an announcement from a valid form and its session / division formsets."""
    event = form.instance
    creating = event.pk is None
    previous_director = None
    if creating:
        if not user.has_perm("tournaments.add_event"):
            raise PermissionDenied
        event.created_by = user
    else:
        event = lock_event(event.pk)
        if not can_edit(user, event):
            raise PermissionDenied
        before = _snapshot(event)
        old_capacity = event.capacity
        previous_director = event.director_id
    event = form.save()
    for formset in formsets:
        formset.instance = event
        formset.save()
    if creating:
        history.record(event, user, Action.CREATED, status_before="")
        directors.follow_pick(event, None, user)
        return event
    directors.follow_pick(event, previous_director, user)
    changes = history.diff(before, _snapshot(event))
    if changes:
        history.record(event, user, Action.EDITED, details=changes)
    if event.capacity != old_capacity and event.status == Status.APPROVED:
        fill_places(event)
    return event


def _step(event_id, user, perm, allowed, new_status, action, *, reason="", reason_required=False, now=None):
    event = lock_event(event_id)
    if not user.has_perm(perm, event):
        raise PermissionDenied
    if event.status not in allowed:
        raise Refused(
            [
                _("This step is not possible while the event is %(status)s.")
                % {"status": event.get_status_display()}
            ]
        )
    reason = (reason or "").strip()
    if reason_required and not reason:
        raise Refused([_("Give the reason.")])
    before = event.status
    event.status = new_status
    if new_status in Event.PUBLIC_STATUSES and event.published_at is None:
        event.published_at = now or timezone.now()
    event.save(update_fields=["status", "published_at", "updated_at"])
    history.record(event, user, action, reason=reason, status_before=before)
    return event


def _tell_organiser(event, subject, body):
    recipients = [address_of(event.created_by)]
    if event.club and event.club.email:
        recipients.append(event.club.email)
    notify(
        recipients,
        subject,
        body + "\n" + absolute_url("event_detail", event.pk),
        federation=event.federation_id,
        category=MailPreference.EVENTS,
    )


@transaction.atomic
def submit(event_id, user) -> Event:
    event = lock_event(event_id)
    if user.has_perm("tournaments.change_event", event):
        gaps = announcement_gaps(event)
        if gaps:
            raise Refused(
                [_("The announcement lacks what VSz 4 requires: %(gaps)s.") % {"gaps": ", ".join(gaps)}]
            )
    return _step(
        event_id,
        user,
        "tournaments.change_event",
        (Status.DRAFT, Status.RETURNED),
        Status.SUBMITTED,
        Action.SUBMITTED,
    )


@transaction.atomic
def propose(event_id, user, now=None) -> Event:
    event = lock_event(event_id)
    if event.start_date.year <= timezone.localdate(now).year:
        raise Refused([_("Only next year's events go into the proposed calendar; approve this one.")])
    return _step(
        event_id,
        user,
        "tournaments.review_event",
        (Status.SUBMITTED,),
        Status.PROPOSED,
        Action.PROPOSED,
        now=now,
    )


@transaction.atomic
def approve(event_id, user, now=None) -> Event:
    event = _step(
        event_id,
        user,
        "tournaments.review_event",
        (Status.SUBMITTED, Status.PROPOSED),
        Status.APPROVED,
        Action.APPROVED,
        now=now,
    )
    _tell_organiser(
        event,
        _("Event approved: %(event)s") % {"event": event.title},
        _("The federation approved %(event)s; it is in the public calendar.") % {"event": event.title},
    )
    return event


@transaction.atomic
def return_event(event_id, user, reason) -> Event:
    event = _step(
        event_id,
        user,
        "tournaments.review_event",
        (Status.SUBMITTED, Status.PROPOSED),
        Status.RETURNED,
        Action.RETURNED,
        reason=reason,
        reason_required=True,
    )
    _tell_organiser(
        event,
        _("Event returned: %(event)s") % {"event": event.title},
        _("The federation returned %(event)s for correction.\nReason: %(reason)s")
        % {"event": event.title, "reason": event.changes.last().reason},
    )
    return event


@transaction.atomic
def cancel(event_id, user, reason) -> Event:
    allowed = (Status.DRAFT, Status.SUBMITTED, Status.RETURNED, Status.PROPOSED, Status.APPROVED)
    event = _step(
        event_id,
        user,
        "tournaments.cancel_event",
        allowed,
        Status.CANCELLED,
        Action.CANCELLED,
        reason=reason,
        reason_required=True,
    )
    mail.event_cancelled(event, event.changes.last().reason)
    return event


@transaction.atomic
def move(event_id, user, new_start: datetime.date, new_end: datetime.date | None, reason: str) -> Event:
    """Staff move an event's dates; sessions and the entry deadline shift with it, entrants are told."""
    event = lock_event(event_id)
    if not user.has_perm("tournaments.review_event", event):
        raise PermissionDenied
    if event.status == Status.CANCELLED:
        raise Refused([_("A cancelled event cannot be moved.")])
    reason = (reason or "").strip()
    if not reason:
        raise Refused([_("Give the reason.")])
    if new_start is None:
        raise Refused([_("Give the new start date.")])
    delta = new_start - event.start_date
    if new_end is None and event.end_date:
        new_end = event.end_date + delta
    if new_end and new_end < new_start:
        raise Refused([_("The end date is before the start date.")])
    if not delta and new_end == event.end_date:
        raise Refused([_("The new dates are the same as the old ones.")])
    refusals = [
        (session, session_starts.refusal(session, session.starts_at + delta))
        for session in event.sessions.all()
    ]
    sealed = [f"{session}: {refusal}" for session, refusal in refusals if refusal]
    if sealed:
        raise Refused(sealed)
    old = {"start_date": event.start_date, "end_date": event.end_date, "entry_deadline": event.entry_deadline}
    event.start_date, event.end_date = new_start, new_end
    if event.entry_deadline:
        event.entry_deadline += delta
    event.save(update_fields=["start_date", "end_date", "entry_deadline", "updated_at"])
    for session in event.sessions.all():
        session.starts_at += delta
        session.save(update_fields=["starts_at"])
    new = {"start_date": event.start_date, "end_date": event.end_date, "entry_deadline": event.entry_deadline}
    history.record(event, user, Action.MOVED, reason=reason, details=history.diff(old, new))
    mail.event_moved(event, old["start_date"], reason)
    return event


@transaction.atomic
def assign_director(event_id, user, email) -> Role:
    """Give a registered user the tournament director role of this one event."""
    event = lock_event(event_id)
    if not user.has_perm("tournaments.assign_director", event):
        raise PermissionDenied
    director = get_user_model().objects.filter(username__iexact=(email or "").strip()).first()
    if director is None:
        raise Refused(
            [_("There is no registered user with the e-mail address %(email)s.") % {"email": email}]
        )
    role, created = Role.objects.get_or_create(
        user=director, kind=Role.DIRECTOR, event=event, defaults={"granted_by": user}
    )
    if not created:
        raise Refused([_("%(email)s is already a director of this event.") % {"email": director.username}])
    if not event.director_name:
        person = getattr(director, "person", None)
        event.director_name = person.full_name if person else director.get_full_name() or director.username
        event.save(update_fields=["director_name", "updated_at"])
    history.record(event, user, Action.DIRECTOR, details={"director": director.username})
    directors.forget_cached_pages(event)
    return role
