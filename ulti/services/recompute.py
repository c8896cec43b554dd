"""What the recompute task does: score every table of the latest versions, then the standings after each
round (per group and over the whole stage) and, in team ulti, the team standings, replacing the stored
rows in one transaction under the event's recompute lock (``results.services.recompute``).

Running it twice gives the same rows; a run that finds the stamp current does nothing.

Team ulti: a team's score is the sum of its three members' table points, then the sum of their forints
(the rule book ranks a team championship the way it ranks players: points, then forint); teams equal on
both share the place.
"""

from __future__ import annotations

import json
from collections import defaultdict

from django.db import transaction

from rankings.services import results_changed
from results import bulk
from results.models import RecomputeState, VersionedUpload
from results.services import mark_uploaded, recompute
from results.upload_decisions import Action
from tournaments.models import Event
from ulti.engine.standings import StandingsError, compute_standings
from ulti.engine.tables import TableError, score_table

from ..models import (
    SCOPE,
    Participant,
    PointDeduction,
    RoundUpload,
    Stage,
    Standing,
    Table,
    TableScore,
    TeamStanding,
)
from . import draw, loading, request_recompute


class RecomputeError(Exception):
    """The engines refused the stored results (a data problem the director must see)."""


def recompute_event(event_id: int, *, force: bool = False) -> dict:
    was_final = False
    with recompute(event_id, SCOPE) as state:
        if not force and state.computed_at is not None and state.computed_version >= state.latest_version:
            return {"event": event_id, "version": state.computed_version, "skipped": True}
        was_final = state.computed_at is not None
        summary = _recompute(event_id, state.latest_version)
    _tell_rankings(event_id, change_reason(event_id) if was_final else "")
    return summary


def change_reason(event_id: int) -> str:
    """Why results already final changed: "appeal" when the latest version is an appeal decision (the
    appeals committee's or the Rules and Ethics Committee's), else "correction" - as the bridge recompute."""
    latest = (
        RoundUpload.objects.filter(round__group__stage__event_id=event_id)
        .order_by("-uploaded_at", "-pk")
        .values_list("source", flat=True)
        .first()
    )
    return "appeal" if latest == VersionedUpload.Source.APPEAL else "correction"


def _tell_rankings(event_id: int, reason: str) -> None:
    results_changed(event_id, reason)


def run_again(event_id: int) -> None:
    """Publish the event's recompute again (e.g. after a failure was fixed); it is idempotent."""
    with transaction.atomic():
        mark_uploaded(event_id, SCOPE)
        request_recompute(event_id)


def record_failure(event_id: int, message: str) -> None:
    with transaction.atomic():
        RecomputeState.objects.filter(event_id=event_id, scope=SCOPE).update(error=message[:2000])


def _recompute(event_id: int, version: int) -> dict:
    event = Event.objects.get(pk=event_id)
    settings = loading.settings_of(event)
    if settings is None:
        return {"event": event_id, "version": version, "stages": 0}
    ruleset = settings.ruleset
    stages = list(Stage.objects.filter(event=event).prefetch_related("groups__rounds").order_by("number"))
    TableScore.objects.filter(table__round__group__stage__event=event).delete()
    Standing.objects.filter(stage__event=event).delete()
    TeamStanding.objects.filter(stage__event=event).delete()
    tables: dict[int, dict[str, int]] = defaultdict(dict)  # round id -> table number -> table id
    for pk, round_id, number in Table.objects.filter(round__group__stage__event=event).values_list(
        "pk", "round_id", "number"
    ):
        tables[round_id][str(number)] = pk
    counts = {"table_scores": 0, "standings": 0, "team_standings": 0}
    for stage in stages:
        try:
            rounds = draw.engine_rounds(stage)
            counts["table_scores"] += _table_scores(stage, rounds, ruleset, tables, version)
            counts["standings"] += _standings(stage, rounds, ruleset, version)
        except (StandingsError, TableError) as error:
            raise RecomputeError(f"{stage}: {error}")
        if event.format == Event.Format.ULTI_TEAM:
            counts["team_standings"] += _team_standings(stage, version)
    return {"event": event_id, "version": version, "stages": len(stages), **counts}


TABLE_SCORE_FIELDS = ("table_id", "participant_id", "forint", "points", "place", "event_version")
STANDING_FIELDS = (
    "stage_id", "group_id", "participant_id", "after_round", "place", "place_from", "place_to", "order", "points",
    "forint", "tables", "byes", "round_points", "event_version",
)  # fmt: skip
TEAM_STANDING_FIELDS = (
    "stage_id", "entry_id", "after_round", "place", "place_from", "place_to", "order", "points", "forint",
    "members", "event_version",
)  # fmt: skip


def _table_scores(stage, rounds, ruleset, tables, version) -> int:
    by_number = tables
    round_ids = {(r.group_id, r.number): r.pk for g in stage.groups.all() for r in g.rounds.all()}
    rows = []
    for result in rounds:
        rid = round_ids[(int(result.group), result.round)]
        for table in result.tables:
            scored = score_table(table, ruleset)
            table_id = by_number[rid][table.table]
            for key, points in scored.points.items():
                rows.append((table_id, int(key), scored.forints[key], points, scored.places[key], version))
    bulk.insert_rows(TableScore, TABLE_SCORE_FIELDS, rows)
    return len(rows)


def _deductions(stage) -> list[tuple[str, int, int]]:
    """(participant key, from round, points) of every point deduction recorded in the stage and not set
    aside by a later upload of its round (results.upload_decisions)."""
    deductions = PointDeduction.objects.filter(participant__stage=stage).exclude(
        upload__later_actions__action=Action.SET_ASIDE
    )
    return [
        (str(d.participant_id), d.upload.round.number, d.points)
        for d in deductions.select_related("upload__round")
    ]


def _deducted_upto(deductions, round_number) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for key, from_round, points in deductions:
        if from_round <= round_number:
            out[key] += points
    return dict(out)


def _standings(stage, rounds, ruleset, version) -> int:
    participants = [
        _Participant(str(pk), group_id, (order, number))
        for pk, group_id, order, number in Participant.objects.filter(stage=stage).values_list(
            "pk", "group_id", "group__order", "number"
        )
    ]
    deductions = _deductions(stage)
    order_of = {p.key: p.order for p in participants}
    groups = list(stage.groups.all())
    played = sorted({r.round for r in rounds})
    rows = []
    for k in played:
        upto = [r for r in rounds if r.round <= k]
        scopes = [(None, [p.key for p in participants], None)]
        if len(groups) > 1:
            scopes += [(g, [p.key for p in participants if p.group_id == g.pk], str(g.pk)) for g in groups]
        for group, keys, group_key in scopes:
            table = compute_standings(
                upto,
                ruleset,
                group=group_key,
                players=keys,
                display_key=order_of.get,
                deductions=_deducted_upto(deductions, k),
            )
            group_id = group.pk if group is not None else None
            for i, s in enumerate(table, start=1):
                rows.append(
                    (
                        stage.pk,
                        group_id,
                        int(s.player),
                        k,
                        s.place,
                        s.place_from,
                        s.place_to,
                        i,
                        s.points,
                        s.forint,
                        s.tables,
                        s.byes,
                        json.dumps(list(s.round_points)),
                        version,
                    )  # fmt: skip
                )
    bulk.insert_rows(Standing, STANDING_FIELDS, rows)
    return len(rows)


class _Participant:
    """A participant as the standings need it (no model instance per player)."""

    __slots__ = ("key", "group_id", "order")

    def __init__(self, key: str, group_id: int | None, order: tuple):
        self.key, self.group_id, self.order = key, group_id, order


def team_table(members: dict[int, list[tuple[int, int]]]) -> list[tuple[int, int, int, int, int]]:
    """(entry, points, forint, place_from, place_to) by team points, then forint; equal teams share a place.

    ``members``: entry id -> [(points, forint) of each member].
    """
    totals = {e: (sum(p for p, _f in ms), sum(f for _p, f in ms)) for e, ms in members.items()}
    order = sorted(totals, key=lambda e: (-totals[e][0], -totals[e][1], e))
    out, i = [], 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and totals[order[j + 1]] == totals[order[i]]:
            j += 1
        for e in order[i : j + 1]:
            out.append((e, totals[e][0], totals[e][1], i + 1, j + 1))
        i = j + 1
    return out


def _team_standings(stage, version) -> int:
    rows = []
    standings = Standing.objects.filter(stage=stage, group=None).select_related("participant__person")
    by_round: dict[int, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    names: dict[int, dict[int, dict]] = defaultdict(dict)
    for s in standings:
        entry = s.participant.entry_id
        if entry is None:
            continue
        by_round[s.after_round][entry].append((s.points, s.forint))
        names[s.after_round].setdefault(entry, [])
        names[s.after_round][entry].append(
            {
                "person_id": s.participant.person_id,
                "name": str(s.participant.person),
                "line": s.participant.line,
                "points": s.points,
                "forint": s.forint,
            }
        )
    for k, members in by_round.items():
        for i, (entry, points, forint, lo, hi) in enumerate(team_table(members), start=1):
            place = str(lo) if lo == hi else f"{lo}-{hi}"
            shown = json.dumps(sorted(names[k][entry], key=lambda m: m["line"]))
            rows.append((stage.pk, entry, k, place, lo, hi, i, points, forint, shown, version))
    bulk.insert_rows(TeamStanding, TEAM_STANDING_FIELDS, rows)
    return len(rows)
