"""The event's director picked from the federation's register (VSz 9), and the director role that follows.

The announcement form offers only unrevoked qualifications of the event's federation valid over the event's
days and high enough for its class (`tournaments.engine.directors`); saving a new pick gives the picked
person's account the event's director role and takes it from the previous pick's account.

When a qualification changes so that it no longer covers an event (revoked in the register, its `valid_until`
passed or moved before the event's last day, its level lowered below the event's class) the events not yet
finished lose the director (`release`, registered with `federation.director_releases` and run by the beat task
`tournaments.tasks.release_expired_directors`); finished events keep theirs and their history. When it is
restored or renewed so that it covers such an event again, the event gets its director back unless somebody
else was named meanwhile (`give_back`, registered with the same registry)."""

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


def _why(event: Event, qualification: QualifiedDirector, today: datetime.date) -> str:
    """Why the qualification no longer covers `event` (its pick problem, in the words of the change)."""
    if qualification.revoked_at:
        return _("The director's qualification was revoked: %(reason)s") % {
            "reason": qualification.revoke_reason
        }
    until = formats.date_format(qualification.valid_until, "Y. m. d.")
    if qualification.valid_until < today:
        return _("The director's qualification expired on %(date)s.") % {"date": until}
    if qualification.valid_until < (event.end_date or event.start_date):
        return _("The director's qualification is now valid only until %(date)s, before the event ends.") % {
            "date": until
        }
    return _("The director's qualification (%(level)s) no longer covers the class of this event.") % {
        "level": qualification.get_level_display()
    }


@transaction.atomic
def release(qualification: QualifiedDirector, user, today: datetime.date | None = None) -> int:
    """Take the director of `qualification` off every event not yet finished that it no longer covers
    (revoked, expired, shortened before the event's last day, lowered below the level the event's class
    needs: `pick_problem`): the event's pick and the director role of the person's account go, the
    organiser, the federation's staff and the director are told, the event's history records it (with the
    qualification, so a renewal can give the event back: `give_back`). Finished events, and events it still
    covers, keep their director. Safe twice: a released event no longer names the qualification. Returns
    the number of events released."""
    today = today or timezone.localdate()
    qualification = QualifiedDirector.objects.select_related("person").get(pk=qualification.pk)
    person = qualification.person
    ids = Event.objects.filter(unfinished_q(today), director=qualification).values_list("pk", flat=True)
    released = 0
    for event_id in sorted(ids):
        event = lock_event(event_id)
        if event.director_id != qualification.pk:  # released meanwhile
            continue
        if pick_problem(event, qualification) is None:  # still covered: the event keeps its director
            continue
        event.director = None
        if event.director_name == person.full_name:
            event.director_name = ""
        event.save(update_fields=["director", "director_name", "updated_at"])
        if person.user_id:
            Role.objects.filter(user_id=person.user_id, kind=Role.DIRECTOR, event=event).delete()
        reason = _why(event, qualification, today)
        history.record(
            event,
            user,
            EventChange.Action.RELEASED,
            reason=reason,
            details={"director": person.full_name, "qualification": qualification.pk},
        )
        forget_cached_pages(event)
        mail.director_released(event, person, reason)
        released += 1
    return released


_PICKS = (EventChange.Action.DIRECTOR, EventChange.Action.RELEASED, EventChange.Action.RESTORED)


def _released_by(event: Event, qualification: QualifiedDirector) -> EventChange | None:
    """The release of `qualification` that left the event without a director, if nobody was named since:
    the event's last change of director is that release, the event names no director, and no other account
    got the event's director role after it."""
    if event.director_id or event.director_name:
        return None
    last = event.changes.filter(action__in=_PICKS).order_by("-at", "-pk").first()
    if last is None or last.action != EventChange.Action.RELEASED:
        return None
    if last.details.get("qualification") != qualification.pk:
        return None
    if Role.objects.filter(kind=Role.DIRECTOR, event=event, granted_at__gt=last.at).exists():
        return None
    return last


@transaction.atomic
def give_back(qualification: QualifiedDirector, user, today: datetime.date | None = None) -> int:
    """A qualification restored or renewed (a new validity, a higher level) covers again events it was
    released from: each not finished that still has no director (the organiser named nobody since) gets it
    back: the pick, the director role of the person's account, a history entry, the same mails as the
    release. Safe twice: a given-back event names the qualification. Returns the number of events."""
    today = today or timezone.localdate()
    qualification = QualifiedDirector.objects.select_related("person").get(pk=qualification.pk)
    if qualification.revoked_at:
        return 0
    person = qualification.person
    released = EventChange.objects.filter(
        action=EventChange.Action.RELEASED, details__qualification=qualification.pk
    ).values_list("event_id", flat=True)
    ids = Event.objects.filter(unfinished_q(today), pk__in=released, director__isnull=True)
    given = 0
    for event_id in sorted(ids.values_list("pk", flat=True)):
        event = lock_event(event_id)
        if _released_by(event, qualification) is None or pick_problem(event, qualification):
            continue
        event.director = qualification
        event.director_name = person.full_name
        event.save(update_fields=["director", "director_name", "updated_at"])
        if person.user_id:
            Role.objects.get_or_create(
                user_id=person.user_id, kind=Role.DIRECTOR, event=event, defaults={"granted_by": user}
            )
        reason = _(
            "The director's qualification covers the event again (valid until %(date)s, %(level)s)."
        ) % {
            "date": formats.date_format(qualification.valid_until, "Y. m. d."),
            "level": qualification.get_level_display(),
        }
        history.record(
            event,
            user,
            EventChange.Action.RESTORED,
            reason=reason,
            details={"director": person.full_name, "qualification": qualification.pk},
        )
        forget_cached_pages(event)
        mail.director_given_back(event, person, reason)
        given += 1
    return given


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
