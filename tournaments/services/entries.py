"""Entries: create, confirm, decline, withdraw, no-show, re-division and the waiting list.

Every step that can change who holds a place locks the event row first (`select_for_update`), so the
capacity check and the insert are one atomic step: concurrent requests for the last places queue on the
lock and exactly `capacity` entries get in; the rest go to the waiting list in order.
"""

from dataclasses import replace

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from federation.models import Federation, Licence
from federation.services import licences

from ..engine import eligibility
from ..models import Division, Entry, EntryMember, Event
from ..refusals import EntryRefused, describe_all
from . import mail
from .player_facts import event_terms, player_facts


def lock_event(event_id) -> Event:
    # Lock only the event row (the region join is an outer join PostgreSQL will not lock).
    return (
        Event.objects.select_for_update(of=("self",)).select_related("federation", "region").get(pk=event_id)
    )


def is_organiser(user, event) -> bool:
    return user.has_perm("tournaments.manage_entries", event)


def _check_open(event, *, by_organiser, now):
    if event.status != Event.Status.APPROVED:
        raise EntryRefused([_("%(event)s is not open for entries.") % {"event": event.title}])
    if by_organiser:
        return
    if event.play_started(now):
        raise EntryRefused([_("Play has started; entries are closed.")])
    if event.deadline_passed(now):
        deadline = timezone.localtime(event.entry_deadline).strftime("%Y. %m. %d. %H:%M")
        raise EntryRefused(
            [
                _(
                    "The entry deadline (%(deadline)s) has passed; only the organiser can accept a late entry "
                    "(VSz 6)."
                )
                % {"deadline": deadline}
            ]
        )


def _division(event, division_id):
    divisions = list(event.divisions.all())
    if not divisions:
        return None
    if not division_id:
        raise EntryRefused([_("Choose a division.")])
    for division in divisions:
        if str(division.pk) == str(division_id):
            return division
    raise EntryRefused([_("This division does not belong to the event.")])


def _has_room(event) -> bool:
    return event.capacity is None or event.active_entries().count() < event.capacity


@transaction.atomic
def create_entry(
    event_id,
    user,
    players,
    *,
    division_id=None,
    team_name="",
    by_organiser=False,
    over_capacity=False,
    buy_licences=False,
    seating_request="",
    seating_note="",
    now=None,
) -> Entry:
    """Enter `players` (Person objects, the entrant or captain first). Raises EntryRefused, writing nothing.

    `buy_licences`: on an ulti event, the players without this season's licence buy it with the entry
    (MAUSZ V.11 (3)); it counts at once and its fee (federation.LicenceFee, apart from the entry fee) is
    owed until the staff record its payment."""
    now = now or timezone.now()
    event = lock_event(event_id)
    if by_organiser:
        if not is_organiser(user, event):
            raise PermissionDenied
    else:
        person = getattr(user, "person", None) if user.is_authenticated else None
        if person is None:
            raise EntryRefused([_("Link your account to your member record before entering.")])
        if not players or players[0].pk != person.pk:
            raise EntryRefused([_("You can only make an entry you play in yourself.")])
    _check_open(event, by_organiser=by_organiser, now=now)
    division = _division(event, division_id)
    team_name = (team_name or "").strip()
    facts = [player_facts(event, p) for p in players]
    buying = _licences_to_buy(event, players, facts) if buy_licences else []
    bought_ids = {p.pk for p in buying}
    facts = [replace(f, has_licence=True) if f.person_id in bought_ids else f for f in facts]
    refusals = eligibility.check_entry(event_terms(event), facts, team_name)
    if refusals:
        raise EntryRefused(describe_all(refusals))

    shape = event.shape
    room = (over_capacity and by_organiser) or _has_room(event)
    entry = Entry.objects.create(
        event=event,
        division=division,
        team_name=team_name,
        status=Entry.Status.ACTIVE if room else Entry.Status.WAITING,
        waiting_since=None if room else now,
        entered_by=user,
        entered_at=now,
        by_organiser=by_organiser,
        late=event.deadline_passed(now),
        seating_request=seating_request,
        seating_note=(seating_note or "").strip()[:200],
    )
    members = []
    for i, person in enumerate(players):
        membership = person.membership(event.federation)
        confirmed = by_organiser or i == 0 or not shape.partner_confirms
        members.append(
            EntryMember.objects.create(
                entry=entry,
                person=person,
                position=i + 1,
                line=shape.lines[i] if shape.lines else "",
                is_captain=shape.is_team and i == 0,
                home_club=membership.club if membership else None,
                confirmed_at=now if confirmed else None,
            )
        )
    for person in buying:
        licences.buy_on_entry(person, event.federation, event.season_year, entry, user)
    mail.entry_received(entry, members)
    return entry


def _licences_to_buy(event, players, facts):
    """The players of an ulti event who have no licence for its season and may buy one (not one the staff
    revoked: only they restore it)."""
    if event.federation.game != Federation.ULTI:
        return []
    without = [p for p, f in zip(players, facts, strict=True) if not f.has_licence]
    revoked = set(
        Licence.objects.filter(
            person__in=without, federation=event.federation, year=event.season_year, revoked_at__isnull=False
        ).values_list("person_id", flat=True)
    )
    return [p for p in without if p.pk not in revoked]


def _member(entry, user):
    person = getattr(user, "person", None) if user.is_authenticated else None
    member = entry.members.filter(person=person).first() if person else None
    if member is None:
        raise PermissionDenied
    return member


@transaction.atomic
def confirm(entry_id, user, now=None) -> Entry:
    entry = Entry.objects.select_related("event").get(pk=entry_id)
    lock_event(entry.event_id)
    entry.refresh_from_db()
    member = _member(entry, user)
    if not entry.is_open:
        raise EntryRefused([_("This entry is no longer open.")])
    if member.confirmed_at is None:
        member.confirmed_at = now or timezone.now()
        member.declined_at = None
        member.save(update_fields=["confirmed_at", "declined_at"])
        if entry.is_confirmed:
            mail.entry_confirmed(entry)
    return entry


@transaction.atomic
def decline(entry_id, user, now=None) -> Entry:
    entry = Entry.objects.select_related("event").get(pk=entry_id)
    event = lock_event(entry.event_id)
    entry.refresh_from_db()
    member = _member(entry, user)
    if not entry.is_open:
        raise EntryRefused([_("This entry is no longer open.")])
    if member.confirmed_at is not None:
        raise EntryRefused([_("You already confirmed this entry; withdraw it instead.")])
    if event.shape.is_team and member.position != 1:
        # A team keeps its entry: the captain names someone else in the place (entry_changes).
        if member.declined_at is None:
            member.declined_at = now or timezone.now()
            member.save(update_fields=["declined_at"])
            mail.member_declined(entry, member)
        return entry
    held_place = entry.status == Entry.Status.ACTIVE
    entry.status = Entry.Status.DECLINED
    entry.withdrawn_at = now or timezone.now()
    entry.withdrawn_by = user
    entry.save(update_fields=["status", "withdrawn_at", "withdrawn_by"])
    mail.entry_declined(entry, member.person)
    if held_place:
        fill_places(event)
    return entry


def can_withdraw(user, entry, now=None) -> bool:
    if not entry.is_open:
        return False
    if is_organiser(user, entry.event):
        return True
    person = getattr(user, "person", None) if user.is_authenticated else None
    return (
        person is not None
        and entry.members.filter(person=person).exists()
        and not entry.event.has_started(now)
    )


STARTED_REFUSAL = _lazy(
    "Play has started, so the entry can no longer be withdrawn here. Tell the tournament director: the "
    "director or the organiser records a withdrawal during play (VSz 25) or a no-show (VSz 7)."
)


@transaction.atomic
def withdraw(entry_id, user, now=None) -> Entry:
    """Withdraw an entry; before play starts a place it held goes to the first eligible entry of the waiting
    list. Once play has started (Event.has_started) only the organiser or director records it, as a
    withdrawal during play (VSz 25): nobody moves up from the waiting list."""
    entry = Entry.objects.select_related("event").get(pk=entry_id)
    event = lock_event(entry.event_id)
    entry.refresh_from_db()
    if not user.has_perm("tournaments.withdraw_entry", entry):
        raise PermissionDenied
    if not entry.is_open:
        raise EntryRefused([_("This entry is no longer open.")])
    if not can_withdraw(user, entry, now):
        raise EntryRefused([str(STARTED_REFUSAL)])
    started = event.has_started(now)
    held_place = entry.status == Entry.Status.ACTIVE
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_at = now or timezone.now()
    entry.withdrawn_by = user
    entry.withdrawn_during_play = started and held_place
    entry.fee_waived = entry.division_moved_at is not None
    entry.save(
        update_fields=["status", "withdrawn_at", "withdrawn_by", "fee_waived", "withdrawn_during_play"]
    )
    mail.entry_withdrawn(entry)
    if held_place and not started:
        fill_places(event, now=now)
    return entry


def fill_places(event, now=None) -> list[Entry]:
    """Move waiting entries into free places, in order, skipping those no longer eligible.

    Never once play has started (Event.has_started): a place freed then stays empty, and nobody is told
    "you got a place" for an event under way or over. The caller holds the event lock.
    """
    if event.has_started(now):
        return []
    promoted = []
    terms = event_terms(event)
    for entry in event.waiting_entries().prefetch_related("members__person"):
        if not _has_room(event):
            break
        facts = [player_facts(event, m.person, ignore_entry=entry) for m in entry.members.all()]
        if eligibility.check_entry(terms, facts, entry.team_name):
            continue
        entry.status = Entry.Status.ACTIVE
        entry.waiting_since = None
        entry.save(update_fields=["status", "waiting_since"])
        mail.promoted(entry)
        promoted.append(entry)
    return promoted


@transaction.atomic
def mark_no_show(entry_id, user, no_show=True, today=None) -> Entry:
    entry = Entry.objects.select_related("event").get(pk=entry_id)
    if not is_organiser(user, entry.event):
        raise PermissionDenied
    if entry.status != Entry.Status.ACTIVE:
        raise EntryRefused([_("Only an entry that holds a place can be marked as not showing up.")])
    if entry.event.start_date > (today or timezone.localdate()):
        raise EntryRefused([_("An entry can be marked as not showing up from the first day of the event.")])
    entry.no_show = no_show
    entry.save(update_fields=["no_show"])
    return entry


@transaction.atomic
def move_division(entry_id, user, division_id, now=None) -> Entry:
    """The organiser moves an entry before play starts; its players may then withdraw without fee (VSz 5)."""
    entry = Entry.objects.select_related("event", "division").get(pk=entry_id)
    event = lock_event(entry.event_id)
    if not is_organiser(user, event):
        raise PermissionDenied
    if not entry.is_open:
        raise EntryRefused([_("This entry is no longer open.")])
    if event.play_started(now):
        raise EntryRefused([_("Play has started: entries can no longer be moved (VSz 5).")])
    division = Division.objects.filter(event=event, pk=division_id).first()
    if division is None:
        raise EntryRefused([_("This division does not belong to the event.")])
    if division.pk == entry.division_id:
        raise EntryRefused([_("The entry is already in this division.")])
    old = entry.division
    entry.division = division
    entry.division_moved_at = now or timezone.now()
    entry.save(update_fields=["division", "division_moved_at"])
    mail.division_changed(entry, old, division)
    return entry
