"""Filing an appeal (VSz 22): the intention before the session ends, the appeal by the deadline, the partner's
agreement, the deposit.

The deadline is the announcement's `Event.appeal_deadline_minutes` after the recorded end of the session
(DEFAULT_DEADLINE_MINUTES when an event has no such field). A pair appeals only when both partners agree,
so the partner confirms online, also by the deadline; a team appeals through its captain.
"""

import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from federation.models import Role
from tournaments.models import Entry, Event

from .. import effects
from ..models import Appeal, Consent, Intention, SessionEnd, TimelineEntry
from . import timeline
from .common import appellant_member, lock_appeal, person_of, require_person, require_status

DEFAULT_DEADLINE_MINUTES = 30
A = TimelineEntry.Action


def _when(value):
    return formats.date_format(timezone.localtime(value), "Y. m. d. H:i")


def deadline_minutes(event) -> int:
    minutes = getattr(event, "appeal_deadline_minutes", None)
    return DEFAULT_DEADLINE_MINUTES if minutes is None else minutes


def session_end(session) -> datetime.datetime | None:
    end = SessionEnd.objects.filter(session=session).values_list("ended_at", flat=True).first()
    return end


def filing_deadline(session) -> datetime.datetime | None:
    end = session_end(session)
    return None if end is None else end + datetime.timedelta(minutes=deadline_minutes(session.event))


@transaction.atomic
def end_session(session, user, at=None) -> SessionEnd:
    """The director records that a session ended; recording it again keeps the first time."""
    end, _created = SessionEnd.objects.get_or_create(
        session=session, defaults={"ended_at": at or timezone.now(), "recorded_by": user}
    )
    return end


def record_intention(session, entry, user, *, source, board_number=None, note="", now=None) -> Intention:
    """The director ticks, or a player declares, the intention to appeal; only before the session ends."""
    now = now or timezone.now()
    if entry.event_id != session.event_id:
        raise ValidationError(_("The entry does not play in this event."))
    if source == Intention.Source.APPELLANT and not entry.members.filter(person=person_of(user)).exists():
        raise PermissionDenied
    end = session_end(session)
    if end is not None and end <= now:
        raise ValidationError(
            _("The session ended at %(end)s: the intention to appeal had to be told before its end (VSz 22).")
            % {"end": _when(end)}
        )
    return Intention.objects.create(
        session=session,
        entry=entry,
        board_number=board_number,
        note=note,
        source=source,
        recorded_by=user,
        recorded_at=now,
    )


def intention_in_time(session, entry) -> bool:
    end = session_end(session)
    found = Intention.objects.filter(session=session, entry=entry)
    return end is not None and found.filter(recorded_at__lte=end).exists()


def event_directors(event):
    """The users who direct `event` (its DIRECTOR roles): the only ones an appeal names as the director."""
    return (
        get_user_model()
        .objects.filter(portal_roles__kind=Role.DIRECTOR, portal_roles__event=event)
        .distinct()
    )


def is_director_of(user, event) -> bool:
    return Role.objects.filter(user=user, kind=Role.DIRECTOR, event=event).exists()


def _check_window(session, now):
    end = session_end(session)
    if end is None or end > now:
        raise ValidationError(_("An appeal can be filed once the session has ended (VSz 22)."))
    deadline = end + datetime.timedelta(minutes=deadline_minutes(session.event))
    if now > deadline:
        raise ValidationError(
            _("The deadline for appeals against rulings in this session was %(deadline)s (VSz 22).")
            % {"deadline": _when(deadline)}
        )
    return deadline


def _check_appellant(entry, person, event):
    member = entry.members.filter(person=person).first()
    if member is None:
        raise ValidationError(_("You can only appeal for an entry you play in."))
    if entry.status != Entry.Status.ACTIVE:
        raise ValidationError(_("This entry is not playing in the event."))
    if event.shape.is_team and not member.is_captain:
        raise ValidationError(_("In a team event the captain files the appeal (VSz 22)."))
    return member


@transaction.atomic
def file_appeal(
    user,
    *,
    session,
    entry,
    board_number,
    ruling,
    request,
    statement,
    director=None,
    director_name="",
    respondent_entry=None,
    ns_pair="",
    ew_pair="",
    appellant_pair="",
    now=None,
) -> Appeal:
    """File an appeal against a director's ruling; refused (nothing written) when a condition is not met."""
    now = now or timezone.now()
    person = require_person(user)
    event = (
        Event.objects.select_for_update(of=("self",)).select_related("federation").get(pk=session.event_id)
    )
    if entry.event_id != event.pk or (respondent_entry and respondent_entry.event_id != event.pk):
        raise ValidationError(_("The entries must play in this event."))
    if respondent_entry is not None and respondent_entry.pk == entry.pk:
        raise ValidationError(_("The opponents cannot be the appellant."))
    if director is not None and not is_director_of(director, event):
        # The web form offers the event's directors only; the API is held to the same list (issue #15).
        raise ValidationError({"director": _("Choose the director who ruled among this event's directors.")})
    _check_appellant(entry, person, event)
    _check_window(session, now)
    effects.check_filing(
        session,
        entry,
        board_number,
        {"ns_pair": ns_pair, "ew_pair": ew_pair, "appellant_pair": appellant_pair},
    )
    if not intention_in_time(session, entry):
        raise ValidationError(
            _("No intention to appeal was recorded with the director before the session ended (VSz 22).")
        )
    duplicate = Appeal.objects.filter(session=session, entry=entry, board_number=board_number).exclude(
        status__in=(Appeal.Status.WITHDRAWN, Appeal.Status.LAPSED)
    )
    if duplicate.exists():
        raise ValidationError(_("This entry has already appealed the ruling on this board."))
    number = (Appeal.objects.filter(event=event).aggregate(m=Max("number"))["m"] or 0) + 1
    appeal = Appeal.objects.create(
        event=event,
        number=number,
        session=session,
        board_number=board_number,
        ns_pair=ns_pair,
        ew_pair=ew_pair,
        appellant_pair=appellant_pair,
        entry=entry,
        respondent_entry=respondent_entry,
        director=director,
        director_name=director_name or (director.get_full_name() or director.email if director else ""),
        ruling=ruling,
        request=request,
        statement=statement,
        filed_by=user,
        filed_at=now,
        deposit_amount=event.appeal_deposit,
    )
    # Pairs: every partner agrees; a team: its captain alone (he is the one filing).
    partners_agree = not event.shape.is_team
    for member in entry.members.select_related("person"):
        own = member.person_id == person.pk
        if own or partners_agree:
            Consent.objects.create(appeal=appeal, person=member.person, agreed_at=now if own else None)
    timeline.record(
        appeal, A.FILED, user, _("Board %(board)s: %(request)s") % {"board": board_number, "request": request}
    )
    _advance(appeal, user)
    return appeal


def _advance(appeal, user):
    """Move the case on as far as its conditions allow: the partners' agreement, then the deposit."""
    if appeal.consents.filter(agreed_at__isnull=True).exists():
        status = Appeal.Status.AWAITING_PARTNER
    elif not appeal.deposit_paid:
        status = Appeal.Status.AWAITING_DEPOSIT
    else:
        status = Appeal.Status.LODGED
    if status != appeal.status:
        appeal.status = status
        appeal.save(update_fields=["status"])
        if status == Appeal.Status.LODGED:
            timeline.record(appeal, A.LODGED, user)


@transaction.atomic
def agree(appeal, user, now=None) -> Appeal:
    """The partner agrees to the appeal; it must happen by the filing deadline too."""
    now = now or timezone.now()
    appeal = lock_appeal(appeal)
    require_status(appeal, Appeal.Status.AWAITING_PARTNER)
    consent = appeal.consents.filter(person=person_of(user), agreed_at__isnull=True).first()
    if consent is None:
        raise PermissionDenied
    deadline = filing_deadline(appeal.session)
    if deadline is not None and now > deadline:
        raise ValidationError(
            _("Both partners had to agree by the deadline (%(deadline)s); the appeal has lapsed.")
            % {"deadline": _when(deadline)}
        )
    consent.agreed_at = now
    consent.save(update_fields=["agreed_at"])
    timeline.record(appeal, A.AGREED, user)
    _advance(appeal, user)
    return appeal


@transaction.atomic
def decline(appeal, user) -> Appeal:
    appeal = lock_appeal(appeal)
    require_status(appeal, Appeal.Status.AWAITING_PARTNER)
    consent = appeal.consents.filter(person=person_of(user), agreed_at__isnull=True).first()
    if consent is None:
        raise PermissionDenied
    consent.declined_at = timezone.now()
    consent.save(update_fields=["declined_at"])
    appeal.status = Appeal.Status.LAPSED
    appeal.save(update_fields=["status"])
    timeline.record(appeal, A.DECLINED, user, _("Without both partners' agreement there is no appeal."))
    return appeal


@transaction.atomic
def confirm_deposit(appeal, user, now=None) -> Appeal:
    """The director confirms the deposit was paid (cash at the table is common)."""
    appeal = lock_appeal(appeal)
    require_status(appeal, Appeal.Status.AWAITING_PARTNER, Appeal.Status.AWAITING_DEPOSIT)
    if appeal.deposit_paid_at is None:
        appeal.deposit_paid_at = now or timezone.now()
        appeal.deposit_received_by = user
        appeal.save(update_fields=["deposit_paid_at", "deposit_received_by"])
        timeline.record(
            appeal, A.DEPOSIT, user, _("%(amount)s Ft received.") % {"amount": appeal.deposit_amount}
        )
    _advance(appeal, user)
    return appeal


@transaction.atomic
def withdraw(appeal, user) -> Appeal:
    """The appellant withdraws before the decision; a deposit paid is given back."""
    appeal = lock_appeal(appeal)
    appellant_member(appeal, user)
    require_status(appeal, *Appeal.PENDING)
    appeal.status = Appeal.Status.WITHDRAWN
    fields = ["status"]
    if appeal.deposit_paid_at is not None:
        appeal.deposit_outcome = Appeal.Deposit.RETURNED
        fields.append("deposit_outcome")
    appeal.save(update_fields=fields)
    timeline.record(appeal, A.WITHDRAWN, user)
    return appeal


def lapse_overdue(now=None) -> int:
    """Cases still waiting for a partner after the deadline lapse; safe to run any number of times."""
    now = now or timezone.now()
    lapsed = 0
    for appeal in Appeal.objects.filter(status=Appeal.Status.AWAITING_PARTNER).select_related(
        "session__event"
    ):
        deadline = filing_deadline(appeal.session)
        if deadline is None or now <= deadline:
            continue
        with transaction.atomic():
            locked = lock_appeal(appeal)
            if locked.status != Appeal.Status.AWAITING_PARTNER:
                continue
            locked.status = Appeal.Status.LAPSED
            locked.save(update_fields=["status"])
            timeline.record(locked, A.LAPSED, None, _("The partner did not agree by the deadline."))
            lapsed += 1
    return lapsed
