"""Public pages of a team event: overview, round pairings, score cards, standings with the chart of
places, the knockout bracket, boards played per player and the Butler of the pairs.

Pages read only the stored rows the recompute task wrote; while a newer upload waits they say so.
"""

from django.db.models import F
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from rankings.services import earned as earned_masterpoints
from results.page_cache import by_event, cache_public_page
from tournaments.models import EntryMember

from ..forms import SwapForm
from ..models import BoardScore, FinalPlace, PairButler, PlayerBoards, Round, Standing
from ..services.decisions import carried_by
from .bracket import bracket_columns
from .charts import places_chart
from .common import common_context, team_event_or_deny, visible_match_or_404


def _rounds(event, runs):
    rounds = event.team_rounds.order_by("number")
    return rounds if runs else rounds.filter(status=Round.Status.PUBLISHED)


@cache_public_page(by_event)
def event_page(request, pk):
    event = team_event_or_deny(request, pk)
    context = common_context(request, event, tab="event")
    context["rounds"] = _rounds(event, context["runs"])
    context["teams"] = event.teams.select_related("entry").prefetch_related("entry__members__person")
    context["final_places"] = FinalPlace.objects.filter(event=event).select_related("team")
    return render(request, "teams/event.html", context)


@cache_public_page(by_event)
def round_page(request, pk, number):
    event = team_event_or_deny(request, pk)
    context = common_context(request, event, tab="rounds")
    round_ = get_object_or_404(_rounds(event, context["runs"]), number=number)
    matches = round_.matches.select_related("home", "away", "result").order_by("bracket", "table", "pk")
    context.update(round=round_, matches=matches, rounds=_rounds(event, context["runs"]))
    if (
        context["runs"]
        and round_.kind == Round.Kind.STAGE
        and not round_.matches.filter(uploads__isnull=False).exists()
    ):
        context["swap_form"] = SwapForm(teams=event.teams.all())
    return render(request, "teams/round.html", context)


def _teams_of(round_):
    return [t for m in round_.matches.all() for t in m.team_ids]


def match_page(request, pk):
    match = visible_match_or_404(request, pk)
    event = match.round.event
    runs = request.user.has_perm("teams.run_event", event)
    result = getattr(match, "result", None)
    boards = list(BoardScore.objects.filter(match=match).order_by("board"))
    segments = {}
    for row in boards:
        segments.setdefault(row.segment, []).append(row)
    lineup = match.lineups.order_by("-number").prefetch_related("seats__person").first()
    context = common_context(request, event, tab="rounds")
    context.update(
        match=match,
        result=result,
        segments=sorted(segments.items()),
        lineup_rows=_lineup_rows(match, lineup),
        uploads=match.uploads.select_related("uploaded_by").order_by("-number") if runs else None,
        carried=list(carried_by(result.upload)) if result is not None and result.upload_id else [],
    )
    return render(request, "teams/match.html", context)


def _lineup_rows(match, lineup):
    """(segment, team, open-room names, closed-room names) of the latest line-up."""
    if lineup is None:
        return []
    seats = {}
    for seat in lineup.seats.all():
        seats.setdefault((seat.segment, seat.team_id, seat.room), []).append(str(seat.person))
    segments = sorted({segment for segment, _team, _room in seats})
    return [
        (
            segment,
            team,
            seats.get((segment, team.pk, "open"), []),
            seats.get((segment, team.pk, "closed"), []),
        )
        for segment in segments
        for team in (match.home, match.away)
    ]


@cache_public_page(by_event, params=("after",))
def standings_page(request, pk):
    event = team_event_or_deny(request, pk)
    context = common_context(request, event, tab="standings")
    rows = list(Standing.objects.filter(event=event).select_related("team").order_by("after_round", "place"))
    rounds = sorted({r.after_round for r in rows})
    try:
        after = int(request.GET.get("after", rounds[-1] if rounds else 0))
    except ValueError:
        after = rounds[-1] if rounds else 0
    places: dict[int, dict[int, int]] = {}
    names = {}
    for row in rows:
        places.setdefault(row.team_id, {})[row.after_round] = row.place
        names[row.team_id] = row.team.name
    previous = {r.team_id: r.place for r in rows if r.after_round == after - 1}
    table = [r for r in rows if r.after_round == after]
    for row in table:
        row.move = previous[row.team_id] - row.place if row.team_id in previous else None
        row.drop = -row.move if row.move else None
    earned = earned_masterpoints.masterpoints_of(event) if table and after == rounds[-1] else {}
    if earned:
        members = {}
        for team_id, person_id in EntryMember.objects.filter(entry__team__event=event).values_list(
            "entry__team__id", "person_id"
        ):
            members.setdefault(team_id, []).append(person_id)
        for row in table:
            row.masterpoints = earned_masterpoints.shares(earned, members.get(row.team_id, ()))
    context.update(
        earned=bool(earned),
        rounds=rounds,
        after=after,
        table=table,
        chart=places_chart(rounds, places, names),
        final_places=FinalPlace.objects.filter(event=event).select_related("team"),
    )
    return render(request, "teams/standings.html", context)


def _round_title(matches: int) -> str:
    return {1: _("final"), 2: _("semi-finals"), 4: _("quarter-finals")}.get(matches) or _(
        "round of %(teams)s"
    ) % {"teams": 2 * matches}


@cache_public_page(by_event)
def bracket_page(request, pk):
    event = team_event_or_deny(request, pk)
    context = common_context(request, event, tab="bracket")
    context["brackets"] = [
        (title, columns)
        for title, columns in (
            (_("Main draw"), bracket_columns(event, "main", _round_title)),
            (_("Consolation bracket"), bracket_columns(event, "consolation", _round_title)),
        )
        if columns
    ]
    return render(request, "teams/bracket.html", context)


@cache_public_page(by_event)
def players_page(request, pk):
    event = team_event_or_deny(request, pk)
    context = common_context(request, event, tab="players")
    context["rows"] = PlayerBoards.objects.filter(event=event).select_related("team", "person")
    return render(request, "teams/players.html", context)


@cache_public_page(by_event)
def butler_page(request, pk):
    event = team_event_or_deny(request, pk)
    context = common_context(request, event, tab="butler")
    rows = PairButler.objects.filter(event=event).select_related("team", "player_a", "player_b")
    context["rows"] = rows.order_by(F("rank").asc(nulls_last=True), "-average")
    return render(request, "teams/butler.html", context)
