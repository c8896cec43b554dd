"""The ulti source of the rankings app (rankings/sources.py): final placings and every table's places.

An event is final once every planned round of every stage is published and fully scored and the stored
standings are current. Placings: the last stage's players by its standings, then the players who did not
reach it by the previous stage's standings (places continuing after the finalists), and so on. Team ulti
gives the team standings, one placing per team. Every player who played has the right to the result.
"""

from __future__ import annotations

from rankings.sources import EventResult, FinalPlacing, PlayerShare, TablePlaces, event_facts, register_source
from results.services import state_of

from ..models import SCOPE, Stage, Standing, TableScore, TeamStanding
from . import loading


def register() -> None:
    register_source("ulti", ulti_final_result)


def _last(stage, model):
    row = model.objects.filter(stage=stage, **({"group": None} if model is Standing else {}))
    return row.order_by("-after_round").values_list("after_round", flat=True).first()


def ulti_final_result(event):
    """rankings source: fn(event) -> EventResult | None (None while not final)."""
    if event.format not in ("ulti_individual", "ulti_team", "sport_ulti"):
        return None
    state = state_of(event.pk, SCOPE)
    if state is None or state.processing or state.computed_at is None or not loading.event_complete(event):
        return None
    stages = list(Stage.objects.filter(event=event).order_by("-number"))
    placings = []
    if event.format == "ulti_team":
        stage = stages[0]
        rows = TeamStanding.objects.filter(
            stage=stage, after_round=_last(stage, TeamStanding)
        ).select_related("entry")
        for row in rows.order_by("order"):
            players = tuple(PlayerShare(m["person_id"], has_rights=True) for m in row.members)
            placings.append(
                FinalPlacing(
                    f"entry-{row.entry_id}",
                    row.place_from,
                    row.place_to,
                    players,
                    row.points,
                    row.forint,
                    name=row.entry.team_name,
                )
            )
    else:
        placed: set[int] = set()
        offset = 0
        for stage in stages:
            rows = list(
                Standing.objects.filter(stage=stage, group=None, after_round=_last(stage, Standing))
                .select_related("participant")
                .order_by("order")
            )
            rows = [r for r in rows if r.participant.person_id not in placed]
            if not rows:
                continue
            # Players left out of a later stage are placed after those who went on, ties shared.
            scores = [(r.points, r.forint) for r in rows]
            for r in rows:
                p = r.participant
                better = sum(1 for sc in scores if sc > (r.points, r.forint))
                equal = sum(1 for sc in scores if sc == (r.points, r.forint))
                key = f"person-{p.person_id}"
                placings.append(
                    FinalPlacing(
                        key,
                        offset + better + 1,
                        offset + better + equal,
                        (PlayerShare(p.person_id, has_rights=True),),
                        r.points,
                        r.forint,
                    )
                )
                placed.add(p.person_id)
            offset += len(rows)
    tables = []
    rounds_before = 0
    for stage in reversed(stages):
        scores = TableScore.objects.filter(table__round__group__stage=stage).select_related(
            "table__round__group", "participant"
        )
        by_table: dict[int, dict] = {}
        for s in scores:
            t = s.table
            entry = by_table.setdefault(
                t.pk, {"round": rounds_before + t.round.number, "table": _table_label(stage, t), "places": {}}
            )
            entry["places"][s.participant.person_id] = s.place
        tables.extend(TablePlaces(v["round"], v["table"], v["places"]) for v in by_table.values())
        rounds_before += stage.rounds
    return EventResult(
        field_size=len(placings),
        version=f"ulti:{state.computed_version}",
        placings=placings,
        tables=sorted(tables, key=lambda t: (t.round, t.table)),
        **event_facts(event),
    )


def _table_label(stage, table) -> str:
    group = table.round.group.name
    return f"{stage.number}{group}-{table.number}" if group or stage.number > 1 else str(table.number)
