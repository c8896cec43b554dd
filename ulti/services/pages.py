"""What the pages read: stored rows shaped for the templates. Pages never score anything."""

from __future__ import annotations

from collections import defaultdict

from results.services import state_of

from ..models import SCOPE, Bye, Participant, Round, Stage, Standing, TableScore, TeamStanding
from . import chart, loading


def processing(event_id: int) -> bool:
    state = state_of(event_id, SCOPE)
    return bool(state and state.processing)


def recompute_error(event_id: int) -> str:
    state = state_of(event_id, SCOPE)
    return state.error if state else ""


def stages(event, *, with_drafts: bool) -> list[dict]:
    """Stages, their groups and rounds (drafts only for those who run the event)."""
    out = []
    for stage in Stage.objects.filter(event=event).prefetch_related("groups").order_by("number"):
        groups = []
        for group in stage.groups.all():
            rounds = list(group.rounds.order_by("number"))
            if not with_drafts:
                rounds = [r for r in rounds if r.is_published]
            uploads = loading.latest_uploads(rounds)
            results = loading.results_of(uploads.values())
            rows = []
            for r in rounds:
                tables = list(r.tables.all())
                done = sum(1 for t in tables if t.pk in results)
                rows.append(
                    {"round": r, "tables": len(tables), "done": done, "complete": done == len(tables)}
                )
            drawn = [r for r in rows if r["round"].is_published]
            groups.append(
                {
                    "group": group,
                    "players": group.participants.count(),
                    "rounds": rows,
                    # Another Swiss round can be drawn until the stage's last one is published.
                    "can_draw": len(drawn) < stage.rounds,
                }
            )
        complete = all(
            len(g["rounds"]) >= stage.rounds and all(r["complete"] for r in g["rounds"]) for g in groups
        )
        out.append({"stage": stage, "groups": groups, "multi": len(groups) > 1, "complete": complete})
    return out


def after_rounds(stage: Stage) -> list[int]:
    return sorted(set(Standing.objects.filter(stage=stage, group=None).values_list("after_round", flat=True)))


def standings(stage: Stage, group, after: int) -> list[Standing]:
    return list(
        Standing.objects.filter(stage=stage, group=group, after_round=after)
        .select_related("participant__person", "participant__group", "participant__entry")
        .order_by("order")
    )


def team_standings(stage: Stage, after: int) -> list[TeamStanding]:
    return list(
        TeamStanding.objects.filter(stage=stage, after_round=after).select_related("entry").order_by("order")
    )


def places_by_round(stage: Stage, group=None) -> dict[int, dict[int, int]]:
    """participant id -> after round -> place (the better end of a shared place)."""
    out: dict[int, dict[int, int]] = defaultdict(dict)
    for pid, rnd, place in Standing.objects.filter(stage=stage, group=group).values_list(
        "participant_id", "after_round", "place_from"
    ):
        out[pid][rnd] = place
    return dict(out)


def chart_of(
    stage: Stage, group, rows: list[Standing], highlight: int | None = None, top: int = 5
) -> dict | None:
    """Places by round of the leaders (and of the chosen player) in this standings table."""
    history = places_by_round(stage, group)
    rounds = sorted({r for places in history.values() for r in places})
    chosen = [row.participant_id for row in rows[:top]]
    if highlight is not None and highlight not in chosen:
        chosen.append(highlight)
    names = {row.participant_id: f"{row.place}. {row.participant.person}" for row in rows}
    return chart.places_chart(
        rounds, {p: history.get(p, {}) for p in chosen}, names, len(rows), highlight=highlight
    )


def round_tables(rnd: Round) -> dict:
    """The round's tables with each seat's stored score (if any) and the byes."""
    scores = {(s.table_id, s.participant_id): s for s in TableScore.objects.filter(table__round=rnd)}
    latest = loading.latest_uploads([rnd]).get(rnd.pk)
    raw = loading.results_of([latest]) if latest else {}
    tables = []
    for table in rnd.tables.prefetch_related("seats__participant__person").order_by("number"):
        seats = []
        for seat in table.seats.all():
            s = scores.get((table.pk, seat.participant_id))
            seats.append(
                {
                    "participant": seat.participant,
                    "forint": s.forint if s else raw.get(table.pk, {}).get(seat.participant_id),
                    "points": s.points if s else None,
                    "place": s.place if s else None,
                }
            )
        tables.append({"table": table, "seats": seats, "has_result": table.pk in raw})
    byes = [b.participant for b in Bye.objects.filter(round=rnd).select_related("participant__person")]
    return {"tables": tables, "byes": byes, "latest": latest}


def player_card(event, person) -> list[dict]:
    """Per stage: the player's rounds (table, opponents, forint, points, place at the table and overall)."""
    out = []
    for p in Participant.objects.filter(stage__event=event, person=person).select_related("stage", "group"):
        places = places_by_round(p.stage).get(p.pk, {})
        totals = {s.after_round: s for s in Standing.objects.filter(stage=p.stage, group=None, participant=p)}
        rounds = []
        seats = p.seats.filter(table__round__status=Round.Status.PUBLISHED).select_related("table__round")
        scores = {s.table_id: s for s in TableScore.objects.filter(participant=p)}
        for seat in seats.order_by("table__round__number"):
            table = seat.table
            others = [
                s.participant
                for s in table.seats.select_related("participant__person")
                if s.participant_id != p.pk
            ]
            rounds.append(
                {
                    "number": table.round.number,
                    "round": table.round,
                    "table": table,
                    "opponents": others,
                    "score": scores.get(table.pk),
                    "place": places.get(table.round.number),
                    "total": totals.get(table.round.number),
                }
            )
        for bye in p.byes.filter(round__status=Round.Status.PUBLISHED).select_related("round"):
            rounds.append(
                {
                    "number": bye.round.number,
                    "round": bye.round,
                    "bye": True,
                    "place": places.get(bye.round.number),
                    "total": totals.get(bye.round.number),
                }
            )
        rounds.sort(key=lambda r: r["number"])
        field = Standing.objects.filter(stage=p.stage, group=None).values("participant").distinct().count()
        graph = chart.places_chart(sorted(places), {p.pk: places}, {p.pk: str(person)}, field, highlight=p.pk)
        out.append({"participant": p, "stage": p.stage, "rounds": rounds, "chart": graph})
    out.sort(key=lambda item: item["stage"].number)
    return out
