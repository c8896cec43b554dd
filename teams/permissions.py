"""Permissions of the teams app (see federation/predicates.py for the mechanism).

The director of THIS event and the staff of its federation run it: generate, edit and publish rounds,
upload results and line-ups. Published pages of a public event are for everybody; a player may always
read his own team's score cards. Checked against the Event (or a Match, which names its event).
"""

import rules

from federation.predicates import is_event_director, is_federation_staff, is_superuser

from .models import Team


def _event(obj):
    return getattr(obj, "event", obj)


@rules.predicate
def is_public_event(user, obj):
    event = _event(obj)
    return event is not None and event.is_public


@rules.predicate
def is_team_player(user, match):
    """A player (captain or not) of one of the match's teams."""
    if match is None or not user.is_authenticated or not hasattr(match, "team_ids"):
        return False
    person = getattr(user, "person", None)
    if person is None:
        return False
    return Team.objects.filter(pk__in=match.team_ids, entry__members__person=person).exists()


runs_event = is_superuser | is_event_director | is_federation_staff

rules.add_perm("teams.run_event", runs_event)
rules.add_perm("teams.view_event", is_public_event | runs_event)
rules.add_perm("teams.view_match", is_public_event | is_team_player | runs_event)
