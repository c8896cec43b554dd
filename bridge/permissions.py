"""Permissions of bridge pair events (see federation/predicates.py for the mechanism).

The director of the event and the staff of its federation (and superusers) run the results: upload,
adjust, countersign, publish, movements, dealing; with the organiser (the organising club's admin) they set
the announced tie-break. A player of a pair asks to correct his pair's result. Everybody else reads
published results of public events, and the scoring settings of public events.
"""

import rules
from django.db.models import Q

from federation.predicates import is_club_admin, is_event_director, is_federation_staff, is_superuser
from tournaments.permissions import is_public_event, runs_entries

from .models import IndividualEvent, Pair, PairSession, Substitution, TableCode

runs_results = is_superuser | is_event_director | is_federation_staff
# The organiser (the admin of the organising club, federation staff) announces the tie-break (VSz 26).
directs_or_organises = runs_results | is_club_admin


@rules.predicate
def is_published(user, obj):
    """A published session (or individual event's results) of a public event; for an event, one whose every
    session with results is."""
    if obj is None:
        return False
    if isinstance(obj, PairSession | IndividualEvent):
        return obj.published_at is not None and obj.event.is_public
    if hasattr(obj, "pair_sessions"):
        sessions = [s for s in obj.pair_sessions.all() if s.versions.exists()]
        return obj.is_public and bool(sessions) and all(s.published_at for s in sessions)
    return False


@rules.predicate
def is_live(user, obj):
    """A session of a public event whose tables enter results on their phones, not yet published: its
    standings and completed boards' frequencies are public, marked live and provisional (issue #18)."""
    if not isinstance(obj, PairSession) or obj.published_at is not None or not obj.event.is_public:
        return False
    return TableCode.objects.filter(session_id=obj.pk).exists()


@rules.predicate
def plays_in_pair(user, seat):
    """The user is a player of the pair, or substituted in it in that session. No object: logged in."""
    if not user.is_authenticated:
        return False
    if seat is None:
        return True
    person = getattr(user, "person", None)
    if person is None:
        return False
    pair = seat.pair
    if person.pk in pair.player_ids:
        return True
    return pair.substitutions.filter(session_id=seat.section.session_id, substitute=person).exists()


rules.add_perm("bridge.manage_results", runs_results)
rules.add_perm("bridge.view_results", is_published | runs_results)
# The live standings and frequency sheets only (not the score cards, hand records or exports).
rules.add_perm("bridge.view_live_results", is_published | is_live | runs_results)
rules.add_perm("bridge.request_correction", plays_in_pair)
# An event's scoring settings (tournaments.Event): read by whoever may read the event, the tie-break set
# by its director or organiser.
rules.add_perm("bridge.view_settings", is_public_event | runs_entries | runs_results)
rules.add_perm("bridge.change_tie_break", directs_or_organises)
# The VSz 26 program test (a federation): its staff only.
rules.add_perm("bridge.check_program", is_federation_staff)
# The federation's psych register (VSz 17): players with psychs in more than one record, across its events.
rules.add_perm("bridge.view_psych_register", is_federation_staff)


def _person_id(user):
    person = getattr(user, "person", None) if user.is_authenticated else None
    return getattr(person, "pk", None)


@rules.predicate
def is_pair_player(user, pair):
    """A player of the pair (bridge.Pair) itself."""
    person_id = _person_id(user)
    return pair is not None and person_id is not None and person_id in pair.player_ids


def plays_in_event(user, event) -> bool:
    """A player (or substitute) of any pair of the event."""
    return _plays_in(user, event.pk)


@rules.predicate
def plays_in_event_of(user, pair):
    """A player (or substitute) of any pair of the pair's event: the pair's possible opponents."""
    return pair is not None and _plays_in(user, pair.event_id)


def _plays_in(user, event_id) -> bool:
    person_id = _person_id(user)
    if person_id is None:
        return False
    in_pair = Pair.objects.filter(Q(player1_id=person_id) | Q(player2_id=person_id), event_id=event_id)
    return (
        in_pair.exists()
        or Substitution.objects.filter(pair__event_id=event_id, substitute_id=person_id).exists()
    )


# Convention cards (VSz 15): the pair (or its director, taking a card handed in on paper) submits one; the
# opponents, i.e. every player of the event, and whoever runs the results see it.
rules.add_perm("bridge.submit_card", is_pair_player | runs_results)
rules.add_perm("bridge.view_card", plays_in_event_of | runs_results)
