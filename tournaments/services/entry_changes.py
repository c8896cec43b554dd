"""Entry changes before the deadline: a pair's partner or a team's member replaced, the newcomer accepting.

The entrant (the entry's first player, the captain of a team) or the organiser asks; the change waits
(EntryChange, pending) until the newcomer accepts it on his entries page. Eligibility is checked with the
eligibility engine when it is asked and again when it is accepted, on the entry as it would be. Every
change is kept, whatever became of it: who asked, when, whom for whom, who decided and when.
"""

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import eligibility
from ..models import Entry, EntryChange
from ..refusals import EntryRefused, describe_all
from . import mail
from .entries import is_organiser, lock_event
from .player_facts import event_terms, player_facts


def _person(user):
    return getattr(user, "person", None) if user.is_authenticated else None


def is_entrant(user, entry) -> bool:
    person = _person(user)
    return person is not None and entry.members.filter(person=person, position=1).exists()


def may_change(user, entry) -> bool:
    return is_entrant(user, entry) or is_organiser(user, entry.event)


def offers_replacement(user, entry, now=None) -> bool:
    """Whether a page offers `user` "Replace a player" on `entry` (the event page, my entries): he is its
    entrant and the entry can still change (open, of more than one player, the event approved, before the
    deadline and the start of play). Reads the entry's prefetched members."""
    person = _person(user)
    event = entry.event
    return (
        person is not None
        and entry.is_open
        and event.shape.max_players > 1
        and event.status == event.Status.APPROVED
        and not event.deadline_passed(now)
        and not event.play_started(now)
        and any(m.person_id == person.pk and m.position == 1 for m in entry.members.all())
    )


def _check_changeable(entry, now):
    event = entry.event
    if not entry.is_open:
        raise EntryRefused([_("This entry is no longer open.")])
    if event.play_started(now) or event.deadline_passed(now) or event.status != event.Status.APPROVED:
        if event.entry_deadline:
            deadline = timezone.localtime(event.entry_deadline).strftime("%Y. %m. %d. %H:%M")
            raise EntryRefused(
                [
                    _(
                        "The entry deadline (%(deadline)s) has passed: players can no longer be replaced. "
                        "Ask the tournament director."
                    )
                    % {"deadline": deadline}
                ]
            )
        raise EntryRefused(
            [_("Play has started: players can no longer be replaced. Ask the tournament director.")]
        )


def _refusals_with(entry, member, newcomer):
    """What the eligibility engine says of the entry with `newcomer` in `member`'s place."""
    event = entry.event
    people = [newcomer if m.pk == member.pk else m.person for m in entry.members.select_related("person")]
    facts = [
        player_facts(event, p) if p.pk == newcomer.pk else player_facts(event, p, ignore_entry=entry)
        for p in people
    ]
    return eligibility.check_entry(event_terms(event), facts, entry.team_name)


@transaction.atomic
def request_replacement(entry_id, user, member_id, newcomer, now=None) -> EntryChange:
    """Ask `newcomer` (a Person) to take the place of the entry's member `member_id` (an EntryMember pk)."""
    now = now or timezone.now()
    entry = Entry.objects.select_related("event").get(pk=entry_id)
    event = lock_event(entry.event_id)
    entry.refresh_from_db()
    entry.event = event
    organiser = is_organiser(user, event)
    if not (organiser or is_entrant(user, entry)):
        raise PermissionDenied
    # The id comes from the client: it must name a member of this very entry, and not its entrant.
    member = entry.members.select_related("person").filter(pk=member_id).first()
    if member is None:
        raise EntryRefused([_("Choose a player of this entry to replace.")])
    if member.position == 1 and not organiser:
        raise EntryRefused([_("You cannot replace yourself; withdraw the entry instead.")])
    _check_changeable(entry, now)
    if member.person_id == newcomer.pk:
        raise EntryRefused([_("%(player)s already plays in this entry.") % {"player": newcomer.full_name}])
    refusals = _refusals_with(entry, member, newcomer)
    if refusals:
        raise EntryRefused(describe_all(refusals))
    # One open question per place: a new request supersedes the one before it.
    entry.changes.filter(position=member.position, status=EntryChange.Status.PENDING).update(
        status=EntryChange.Status.CANCELLED, decided_by=user, decided_at=now
    )
    change = EntryChange.objects.create(
        entry=entry,
        old_person=member.person,
        new_person=newcomer,
        position=member.position,
        requested_by=user,
        requested_at=now,
        by_organiser=organiser and not is_entrant(user, entry),
    )
    mail.replacement_asked(change)
    return change


def _pending_for(change_id, user):
    change = EntryChange.objects.select_related("entry__event", "new_person", "old_person").get(pk=change_id)
    person = _person(user)
    if person is None or person.pk != change.new_person_id:
        raise PermissionDenied
    lock_event(change.entry.event_id)
    change.refresh_from_db()
    if change.status != EntryChange.Status.PENDING:
        raise EntryRefused([_("This change is no longer open.")])
    return change


@transaction.atomic
def accept_replacement(change_id, user, now=None) -> EntryChange:
    now = now or timezone.now()
    change = _pending_for(change_id, user)
    entry = change.entry
    entry.refresh_from_db()
    _check_changeable(entry, now)
    member = entry.members.filter(position=change.position, person=change.old_person).first()
    if member is None:
        raise EntryRefused([_("This change is no longer open.")])
    refusals = _refusals_with(entry, member, change.new_person)
    if refusals:
        raise EntryRefused(describe_all(refusals))
    membership = change.new_person.membership(entry.event.federation)
    member.person = change.new_person
    member.home_club = membership.club if membership else None
    member.confirmed_at = now
    member.declined_at = None
    member.save(update_fields=["person", "home_club", "confirmed_at", "declined_at"])
    change.status = EntryChange.Status.ACCEPTED
    change.decided_by = user
    change.decided_at = now
    change.save(update_fields=["status", "decided_by", "decided_at"])
    mail.replacement_decided(change)
    return change


@transaction.atomic
def decline_replacement(change_id, user, now=None) -> EntryChange:
    change = _pending_for(change_id, user)
    change.status = EntryChange.Status.DECLINED
    change.decided_by = user
    change.decided_at = now or timezone.now()
    change.save(update_fields=["status", "decided_by", "decided_at"])
    mail.replacement_decided(change)
    return change
