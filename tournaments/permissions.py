"""Permissions of the tournaments app (see federation/predicates.py for the mechanism).

The organiser of an event is the admin of its club; federation staff act for every event of their
federation; the event's tournament director runs its entries on the day.
"""

import rules

from federation.predicates import (
    is_authenticated,
    is_club_admin,
    is_event_director,
    is_federation_staff,
    is_superuser,
)


@rules.predicate
def is_entry_member(user, entry):
    if entry is None or not user.is_authenticated:
        return False
    person = getattr(user, "person", None)
    return person is not None and entry.members.filter(person=person).exists()


@rules.predicate
def is_entry_entrant(user, entry):
    """The entry's first player (a team's captain): he may replace the others before the deadline."""
    if entry is None or not user.is_authenticated:
        return False
    person = getattr(user, "person", None)
    return person is not None and entry.members.filter(person=person, position=1).exists()


@rules.predicate
def is_change_newcomer(user, change):
    person = getattr(user, "person", None) if user.is_authenticated else None
    return change is not None and person is not None and change.new_person_id == person.pk


@rules.predicate
def is_public_event(user, event):
    return event is not None and event.is_public


is_organiser = is_superuser | is_federation_staff | is_club_admin
runs_entries = is_organiser | is_event_director

# Without an object: may open the "new announcement" page at all (a role in some club or federation).
rules.add_perm("tournaments.add_event", is_superuser | is_federation_staff | is_club_admin)
rules.add_perm("tournaments.view_event", is_public_event | runs_entries)
rules.add_perm("tournaments.change_event", is_organiser)
rules.add_perm("tournaments.cancel_event", is_organiser)
rules.add_perm("tournaments.assign_director", is_organiser)
rules.add_perm("tournaments.review_event", is_superuser | is_federation_staff)
# Without an object: whether the navbar offers "My events" (the events the user directs or whose club he
# administers) and the approval queue ("tournaments.review_event").
rules.add_perm(
    "tournaments.view_own_events", is_superuser | is_federation_staff | is_club_admin | is_event_director
)
rules.add_perm("tournaments.view_history", runs_entries)
rules.add_perm("tournaments.manage_entries", runs_entries)
rules.add_perm("tournaments.view_fee_ledger", runs_entries)
rules.add_perm("tournaments.view_club_fee_summary", is_superuser | is_federation_staff)
rules.add_perm("tournaments.create_entry", is_authenticated)
rules.add_perm("tournaments.withdraw_entry", is_entry_member | runs_entries)
rules.add_perm("tournaments.respond_to_entry", is_entry_member)
# Payments (tournaments/services/payments.py): booked per event by whoever runs its entries; seen by them
# and by the entry's own players; a bank statement is imported into a club's account (its admin, the
# federation's staff) or the federation's (its staff), and the monthly settlement is read the same way.
rules.add_perm("tournaments.record_payment", runs_entries)
rules.add_perm("tournaments.view_entry_payments", is_entry_member | runs_entries)
rules.add_perm("tournaments.import_bank_statement", is_superuser | is_federation_staff | is_club_admin)
rules.add_perm("tournaments.view_settlement", is_superuser | is_federation_staff | is_club_admin)

# Region notices and the board's consent to a switch after playing elsewhere (MAUSZ 9 (2)): the staff.
rules.add_perm("tournaments.manage_region_notices", is_superuser | is_federation_staff)

rules.add_perm("tournaments.change_entry", is_entry_entrant | runs_entries)
rules.add_perm("tournaments.respond_to_change", is_change_newcomer)
