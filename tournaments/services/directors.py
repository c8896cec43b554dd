"""The event's director picked from the federation's register (VSz 9), and the director role that follows.

The announcement form offers only unrevoked qualifications of the event's federation valid over the event's
days and high enough for its class (`tournaments.engine.directors`); saving a new pick gives the picked
person's account the event's director role and takes it from the previous pick's account.

When a qualification ends (revoked in the register, or its `valid_until` passed) the events it covered that
have not finished lose the director (`release`, registered with `federation.director_releases` and run by the
beat task `tournaments.tasks.release_expired_directors`); finished events keep theirs and their history."""

import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from federation.models import QualifiedDirector, Role
from results.page_cache import bump, event_scope

from ..engine.directors import required_level
from ..models import Event, EventChange
from . import history, mail
from .entries import lock_event


def pick_problem(event: Event, qualification: QualifiedDirector) -> str | None:
    """Why `qualification` cannot direct `event`, or None."""
    if qualification.federation_id != event.federation_id:
        return _("This director is in the register of another federation.")
    last_day = event.end_date or event.start_date
    if qualification.revoked_at or not (
        qualification.valid_from <= event.start_date and qualification.valid_until >= last_day
    ):
        return _("This qualification is not valid on the days of the event.")
    level = required_level(event.event_class)
    if not qualification.covers(level):
        return _("This event needs a director with at least the qualification: %(level)s.") % {
            "level": dict(QualifiedDirector.LEVELS)[level]
        }
    return None


def offered(federation_ids, first_day=None):
    """The qualifications the form offers: unrevoked, of these federations, not expired by `first_day`."""
    rows = QualifiedDirector.objects.filter(federation_id__in=federation_ids, revoked_at__isnull=True)
    if first_day:
        rows = rows.filter(valid_until__gte=first_day)
    return rows.select_related("person", "federation").order_by("person__last_name", "person__first_name")


def follow_pick(event: Event, previous_id: int | None, user) -> None:
    """Inside the announcement's transaction: move the director role from the previous pick to the new."""
    if event.director_id == previous_id:
        return
    new_user_id = event.director.person.user_id if event.director_id else None
    if previous_id:
        old = QualifiedDirector.objects.select_related("person").get(pk=previous_id)
        if old.person.user_id and old.person.user_id != new_user_id:
            Role.objects.filter(user_id=old.person.user_id, kind=Role.DIRECTOR, event=event).delete()
    if new_user_id:
        Role.objects.get_or_create(
            user_id=new_user_id, kind=Role.DIRECTOR, event=event, defaults={"granted_by": user}
        )
    forget_cached_pages(event)
    if event.director_id:
        name = event.director.person.full_name
        if event.director_name != name:
            event.director_name = name
            event.save(update_fields=["director_name", "updated_at"])
    history.record(
        event,
        user,
        EventChange.Action.DIRECTOR,
        details={"director": event.director.person.full_name if event.director_id else ""},
    )


def forget_cached_pages(event: Event) -> None:
    """The game's cached public pages carry the "no director yet" notice: a named director renews them."""
    bump(event_scope(event.pk))


def has_director(event: Event) -> bool:
    return Role.objects.filter(kind=Role.DIRECTOR, event=event).exists()


def unfinished_q(today: datetime.date) -> Q:
    """Events whose last day is today or later (not finished), and not cancelled."""
    return (Q(end_date__gte=today) | Q(end_date__isnull=True, start_date__gte=today)) & ~Q(
        status=Event.Status.CANCELLED
    )


def _why(qualification) -> str:
    if qualification.revoked_at:
        return _("The director's qualification was revoked: %(reason)s") % {
            "reason": qualification.revoke_reason
        }
    return _("The director's qualification expired on %(date)s.") % {
        "date": formats.date_format(qualification.valid_until, "Y. m. d.")
    }


@transaction.atomic
def release(qualification: QualifiedDirector, user, today: datetime.date | None = None) -> int:
    """Take the director of `qualification` off every event it covers that has not finished: the event's
    pick and the director role of the person's account go, the organiser, the federation's staff and the
    director are told, the event's history records it. Finished events keep their director and history.
    Safe twice: a released event no longer names the qualification. Returns the number of events released."""
    today = today or timezone.localdate()
    qualification = QualifiedDirector.objects.select_related("person").get(pk=qualification.pk)
    person = qualification.person
    ids = Event.objects.filter(unfinished_q(today), director=qualification).values_list("pk", flat=True)
    released = 0
    for event_id in sorted(ids):
        event = lock_event(event_id)
        if event.director_id != qualification.pk:  # released meanwhile
            continue
        event.director = None
        if event.director_name == person.full_name:
            event.director_name = ""
        event.save(update_fields=["director", "director_name", "updated_at"])
        if person.user_id:
            Role.objects.filter(user_id=person.user_id, kind=Role.DIRECTOR, event=event).delete()
        reason = _why(qualification)
        history.record(
            event, user, EventChange.Action.RELEASED, reason=reason, details={"director": person.full_name}
        )
        forget_cached_pages(event)
        mail.director_released(event, person, reason)
        released += 1
    return released


def release_expired(today: datetime.date | None = None) -> int:
    """Release the unrevoked qualifications whose validity ended before `today` from the events they still
    name (the beat task's work). Idempotent: a second run finds no event naming them."""
    today = today or timezone.localdate()
    expired = QualifiedDirector.objects.filter(
        revoked_at__isnull=True,
        valid_until__lt=today,
        pk__in=Event.objects.filter(unfinished_q(today), director__isnull=False).values("director"),
    )
    return sum(release(qualification, None, today) for qualification in expired.order_by("pk"))
