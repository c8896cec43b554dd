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
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import OuterRef, Subquery

from federation.models import Person
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
    Bye,
    ForintResult,
    Group,
    Participant,
    PointDeduction,
    Round,
    RoundUpload,
    Seat,
    Stage,
    Standing,
    Table,
    TableScore,
    TeamStanding,
    UltiEvent,
)
from . import loading, request_recompute


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
    """Everything read in one round trip on PostgreSQL (the needed columns as tuples, no model instance per
    player, seat or table), scored, then written in one more plus a COPY per large table: the same number of
    queries whatever the number of players (results.bulk)."""
    read = _read(event_id)
    if read is None:
        return {"event": event_id, "version": version, "stages": 0}
    counts = {"table_scores": 0, "standings": 0, "team_standings": 0}
    scores, standings, team_standings = [], [], []
    for stage in read.stages:
        try:
            rounds = loading.round_results(
                read.rounds[stage.pk], read.uploaded, read.results, read.seats, read.byes, read.tables
            )
            scores += _table_scores(rounds, read, version)
            rows = _standings(stage, rounds, read, version)
        except (StandingsError, TableError) as error:
            raise RecomputeError(f"{stage}: {error}")
        standings += rows
        if read.team:
            team_standings += _team_standings(stage.pk, rows, read, version)
    counts = {"table_scores": len(scores), "standings": len(standings), "team_standings": len(team_standings)}
    stages = f"SELECT id FROM {_table(Stage)} WHERE event_id = %s"
    tables = (
        f"SELECT t.id FROM {_table(Table)} t INNER JOIN {_table(Round)} r ON r.id = t.round_id "
        f"INNER JOIN {_table(Group)} g ON g.id = r.group_id WHERE g.stage_id IN ({stages})"
    )
    bulk.write_all(
        [
            (f"DELETE FROM {_table(TableScore)} WHERE table_id IN ({tables})", [event_id]),
            (f"DELETE FROM {_table(Standing)} WHERE stage_id IN ({stages})", [event_id]),
            (f"DELETE FROM {_table(TeamStanding)} WHERE stage_id IN ({stages})", [event_id]),
        ],
        [
            (TableScore, TABLE_SCORE_FIELDS, scores),
            (Standing, STANDING_FIELDS, standings),
            (TeamStanding, TEAM_STANDING_FIELDS, team_standings),
        ],
    )
    return {"event": event_id, "version": version, "stages": len(read.stages), **counts}


class _Read(NamedTuple):
    ruleset: object
    team: bool  # team ulti: team standings too
    stages: list[Stage]  # name and kind only (a refusal names the stage)
    rounds: dict[
        int, list[tuple[int, int, int]]
    ]  # stage id -> (round id, number, group id) of published rounds
    uploaded: set[int]  # rounds with a version
    results: dict[int, dict[int, int]]  # table id -> participant id -> forint, latest versions
    seats: dict[int, list[int]]  # table id -> participant ids in seat order
    byes: dict[int, list[int]]  # round id -> participant ids
    tables: dict[int, list[tuple[int, int]]]  # round id -> (table id, number) by number
    groups: dict[int, list[int]]  # stage id -> group ids in order
    participants: dict[int, list[tuple]]  # stage id -> (id, group id, group order, number, entry id, line)
    deductions: dict[int, list[tuple[str, int, int]]]  # stage id -> (participant key, from round, points)
    names: dict[int, tuple[int, str]]  # participant id -> (person id, name) (team ulti only)


def _read(event_id: int) -> _Read | None:
    e = event_id
    published = Round.Status.PUBLISHED
    newest = RoundUpload.objects.filter(round=OuterRef("round")).order_by("-number").values("number")[:1]
    latest = RoundUpload.objects.filter(
        round__group__stage__event_id=e, round__status=published, number=Subquery(newest)
    ).values("pk")
    (
        settings, formats, stage_rows, group_rows, round_rows, uploaded, result_rows, seat_rows, bye_rows,
        table_rows, participant_rows, deduction_rows,
    ) = bulk.read_all(
        [
            UltiEvent.objects.filter(event_id=e).values_list("rules"),
            Event.objects.filter(pk=e).values_list("format"),
            Stage.objects.filter(event_id=e).order_by("number").values_list("pk", "name", "kind"),
            Group.objects.filter(stage__event_id=e).order_by("stage", "order", "name").values_list("pk", "stage_id"),
            Round.objects.filter(group__stage__event_id=e, status=published)
            .order_by("number", "group__order", "group__name", "pk")
            .values_list("pk", "number", "group_id", "group__stage_id"),
            RoundUpload.objects.filter(pk__in=latest).values_list("round_id"),
            ForintResult.objects.filter(upload__in=latest).values_list("table_id", "participant_id", "forint"),
            Seat.objects.filter(table__round__group__stage__event_id=e, table__round__status=published)
            .order_by("table_id", "position")
            .values_list("table_id", "participant_id"),
            Bye.objects.filter(round__group__stage__event_id=e, round__status=published)
            .order_by("pk")
            .values_list("round_id", "participant_id"),
            Table.objects.filter(round__group__stage__event_id=e, round__status=published)
            .order_by("number")
            .values_list("pk", "round_id", "number"),
            Participant.objects.filter(stage__event_id=e)
            .order_by("group__order", "group__name", "number")
            .values_list("pk", "stage_id", "group_id", "group__order", "number", "entry_id", "line"),
            PointDeduction.objects.filter(participant__stage__event_id=e)
            .exclude(upload__later_actions__action=Action.SET_ASIDE)
            .order_by("pk")
            .values_list("participant__stage_id", "participant_id", "upload__round__number", "points"),
        ]
    )  # fmt: skip
    if not settings:
        return None
    team = bool(formats) and formats[0][0] == Event.Format.ULTI_TEAM
    rounds, groups, participants, deductions = (defaultdict(list) for _i in range(4))
    for pk, number, group_id, stage_id in round_rows:
        rounds[stage_id].append((pk, number, group_id))
    for pk, stage_id in group_rows:
        groups[stage_id].append(pk)
    for pk, stage_id, *rest in participant_rows:
        participants[stage_id].append((pk, *rest))
    for stage_id, participant_id, from_round, points in deduction_rows:
        deductions[stage_id].append((str(participant_id), from_round, points))
    results: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, participant_id, forint in result_rows:
        results[table_id][participant_id] = forint
    seats, byes, tables = defaultdict(list), defaultdict(list), defaultdict(list)
    for table_id, participant_id in seat_rows:
        seats[table_id].append(participant_id)
    for round_id, participant_id in bye_rows:
        byes[round_id].append(participant_id)
    for pk, round_id, number in table_rows:
        tables[round_id].append((pk, number))
    names = {}
    if team:  # the members' names are shown in the team standings
        people = Participant.objects.filter(stage__event_id=e).values_list(
            "pk", "person_id", "person__last_name", "person__first_name"
        )
        names = {
            pk: (person, str(Person(last_name=last, first_name=first))) for pk, person, last, first in people
        }
    return _Read(
        UltiEvent(event_id=e, rules=settings[0][0]).ruleset,
        team,
        [Stage(pk=pk, event_id=e, name=name, kind=kind) for pk, name, kind in stage_rows],
        rounds,
        {round_id for (round_id,) in uploaded},
        results,
        seats,
        byes,
        tables,
        groups,
        participants,
        deductions,
        names,
    )


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


TABLE_SCORE_FIELDS = ("table_id", "participant_id", "forint", "points", "place", "event_version")
STANDING_FIELDS = (
    "stage_id", "group_id", "participant_id", "after_round", "place", "place_from", "place_to", "order", "points",
    "forint", "tables", "byes", "round_points", "event_version",
)  # fmt: skip
TEAM_STANDING_FIELDS = (
    "stage_id", "entry_id", "after_round", "place", "place_from", "place_to", "order", "points", "forint",
    "members", "event_version",
)  # fmt: skip


def _table_scores(rounds, read: _Read, version) -> list[tuple]:
    by_number = {
        round_id: {str(number): pk for pk, number in tables} for round_id, tables in read.tables.items()
    }
    round_ids = {(group_id, number): pk for rows in read.rounds.values() for pk, number, group_id in rows}
    rows = []
    for result in rounds:
        table_ids = by_number[round_ids[(int(result.group), result.round)]]
        for table in result.tables:
            scored = score_table(table, read.ruleset)
            table_id = table_ids[table.table]
            for key, points in scored.points.items():
                rows.append((table_id, int(key), scored.forints[key], points, scored.places[key], version))
    return rows


def _deducted_upto(deductions, round_number) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for key, from_round, points in deductions:
        if from_round <= round_number:
            out[key] += points
    return dict(out)


def _standings(stage, rounds, read: _Read, version) -> list[tuple]:
    participants = [
        _Participant(str(pk), group_id, (order, number))
        for pk, group_id, order, number, _entry, _line in read.participants[stage.pk]
    ]
    deductions = read.deductions[stage.pk]
    order_of = {p.key: p.order for p in participants}
    groups = read.groups[stage.pk]
    played = sorted({r.round for r in rounds})
    rows = []
    for k in played:
        upto = [r for r in rounds if r.round <= k]
        scopes = [(None, [p.key for p in participants])]
        if len(groups) > 1:
            scopes += [(g, [p.key for p in participants if p.group_id == g]) for g in groups]
        for group_id, keys in scopes:
            table = compute_standings(
                upto,
                read.ruleset,
                group=str(group_id) if group_id is not None else None,
                players=keys,
                display_key=order_of.get,
                deductions=_deducted_upto(deductions, k),
            )
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
    return rows


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


def _team_standings(stage_id, standings, read: _Read, version) -> list[tuple]:
    """TeamStanding rows from the stage's Standing rows (those over the whole stage, group empty)."""
    member = {pk: (entry, line) for pk, _g, _o, _n, entry, line in read.participants[stage_id]}
    by_round: dict[int, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    names: dict[int, dict[int, list]] = defaultdict(dict)
    for _stage, group_id, participant, k, *_p, points, forint, _t, _b, _r, _v in standings:
        entry, line = member[participant]
        if group_id is not None or entry is None:
            continue
        by_round[k][entry].append((points, forint))
        names[k].setdefault(entry, []).append(
            {
                "person_id": read.names[participant][0],
                "name": read.names[participant][1],
                "line": line,
                "points": points,
                "forint": forint,
            }
        )
    rows = []
    for k, members in by_round.items():
        for i, (entry, points, forint, lo, hi) in enumerate(team_table(members), start=1):
            place = str(lo) if lo == hi else f"{lo}-{hi}"
            shown = json.dumps(sorted(names[k][entry], key=lambda m: m["line"]))
            rows.append((stage_id, entry, k, place, lo, hi, i, points, forint, shown, version))
    return rows
