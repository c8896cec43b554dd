"""What every team-event page shares: loading the event, round or match by the one access rule
(`federation.access`: `teams.view_event` decides 404; visible but not permitted is a login or a 403),
and the context of the event's tabs."""

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from federation.access import check, deny, object_or_deny
from results.services import state_of
from tournaments.models import Event

from ..models import SCOPE, Match, Progress, Round, TeamEvent

VIEW_EVENT = "teams.view_event"
RUN_EVENT = "teams.run_event"


def team_events() -> QuerySet:
    return Event.objects.select_related("federation", "club").filter(format=Event.Format.TEAMS)


def team_event_or_deny(request, pk, perm=VIEW_EVENT) -> Event:
    """The team event `pk` if the user has `perm` on it; 404 for one he may not see."""
    return object_or_deny(request, team_events(), perm, visible=VIEW_EVENT, pk=pk)


def check_runs(request, event: Event) -> None:
    """Nothing for the event's director (or its federation's staff), else the refusal of the rule."""
    check(request, RUN_EVENT, event, visible=VIEW_EVENT)


def sees_round(user, round_: Round) -> bool:
    """A published round of a visible event, or any round of an event the user runs."""
    event = round_.event
    return user.has_perm(RUN_EVENT, event) or (round_.is_published and user.has_perm(VIEW_EVENT, event))


def sees_match(user, match: Match) -> bool:
    """The score card of a match: `teams.view_match`, in a published round unless the user runs the event."""
    if not user.has_perm("teams.view_match", match):
        return False
    return match.round.is_published or user.has_perm(RUN_EVENT, match.round.event)


def visible_match_or_404(request, pk) -> Match:
    """A match's score card; a match the user may not see (a private event's, a draft round's) is a 404."""
    match = get_object_or_404(
        Match.objects.select_related("round__event__federation", "home", "away"),
        pk=pk,
        round__event__format=Event.Format.TEAMS,
    )
    if not sees_match(request.user, match):
        deny(request, match, visible=sees_match)
    return match


def runner_match(request, pk) -> Match:
    """A match of a team event the user runs."""
    match = get_object_or_404(Match.objects.select_related("round__event__federation", "home", "away"), pk=pk)
    check_runs(request, match.round.event)
    return match


def runner_round(request, pk) -> Round:
    """A round of a team event the user runs."""
    round_ = get_object_or_404(Round.objects.select_related("event"), pk=pk)
    check_runs(request, round_.event)
    return round_


def common_context(request, event, **extra):
    state = state_of(event.pk, SCOPE)
    context = {
        "event": event,
        "setup": TeamEvent.objects.filter(event=event).first(),
        "runs": request.user.has_perm(RUN_EVENT, event),
        "processing": bool(state and state.processing),
        "progress": Progress.objects.filter(event=event).first(),
        "has_knockout": event.team_rounds.filter(
            kind=Round.Kind.KNOCKOUT, status=Round.Status.PUBLISHED
        ).exists(),
    }
    context.update(extra)
    return context
