"""What the recompute task does: score every match from its latest upload, then standings, progress,
final places, boards played and the Butler of the pairs, replacing the stored rows in one transaction.

It runs under `results.services.recompute` (the event's row lock, then the version stamp), so two runs
for one event never interleave, and a run that finds the stamp current does nothing: running it twice
gives the same rows.

Its cost is the database's, not Python's: everything it reads comes in one round trip on PostgreSQL
(`results.bulk.read_all`: the needed columns as tuples, the latest version of each match only, no model
instance per match, board or seat), and everything it writes goes in one more (the DELETEs, the progress
and the small tables' rows) plus a COPY per large table (`results.bulk.write_all`), however many matches.
"""

import json
from collections import defaultdict
from decimal import Decimal
from typing import NamedTuple

from django.db import connection
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from rankings.services import results_changed
from results import bulk
from results.services import recompute
from teams.engine import match as match_engine
from teams.engine.pairing.knockout import MatchPlan, consolation_draw, plan_match
from teams.engine.vp import match_vp
from tournaments.models import EntryMember, Event

from ..engine import butler as butler_engine
from ..engine import places as places_engine
from ..engine import rights as rights_engine
from ..engine.standings import ScoredMatch, standings_by_round
from ..models import (
    SCOPE,
    BoardScore,
    FinalPlace,
    LineUp,
    LineUpSeat,
    Match,
    MatchResult,
    MatchUpload,
    PairButler,
    PlayerBoards,
    Progress,
    Round,
    Standing,
    Team,
    TeamEvent,
    UploadedBoard,
)
from . import knockout as ko
from .results import segment_of_boards
from .setup import setup_of

ZERO = Decimal(0)


class _BoardRow(NamedTuple):
    """A BoardScore row as written (BOARD_FIELDS order): no model instance per board."""

    match_id: int
    board: int
    segment: int
    open_ns: int | None
    closed_ns: int | None
    open_contract: str
    closed_contract: str
    difference: int | None
    home_imps: Decimal
    away_imps: Decimal
    status: str


class _Result(NamedTuple):
    """A MatchResult row as written (MATCH_FIELDS order)."""

    match_id: int
    upload_id: int | None
    home_imps: Decimal
    away_imps: Decimal
    home_vp: Decimal | None
    away_vp: Decimal | None
    boards: int
    winner_id: int | None
    version: int


class _Round(NamedTuple):
    pk: int
    number: int
    kind: str
    brackets: dict
    boards: int
    matches: list


class _Match(NamedTuple):
    """A match as the recompute needs it (read with values_list)."""

    pk: int
    round: _Round
    home_id: int
    away_id: int | None
    bracket: str
    line: int | None

    @property
    def is_bye(self) -> bool:
        return self.away_id is None

    @property
    def team_ids(self):
        return [t for t in (self.home_id, self.away_id) if t is not None]


class _Upload(NamedTuple):
    pk: int
    imps_only: bool
    home_imps: Decimal | None
    away_imps: Decimal | None
    boards_played: int | None
    boards: list  # (board, open_ns, closed_ns, open_contract, closed_contract, adjusted_imps), by board


BOARD_FIELDS = _BoardRow._fields
MATCH_FIELDS = _Result._fields
STANDING_FIELDS = (
    "event_id", "after_round", "team_id", "place", "vp", "imps_won", "imps_lost", "played", "version",
)  # fmt: skip
FINAL_PLACE_FIELDS = ("event_id", "team_id", "place_from", "place_to", "version")
PLAYER_BOARDS_FIELDS = ("event_id", "team_id", "person_id", "boards", "team_boards", "has_rights", "version")
BUTLER_FIELDS = (
    "event_id", "team_id", "player_a_id", "player_b_id", "boards", "imps", "average", "rank", "version",
)  # fmt: skip
PROGRESS_FIELDS = (
    "version", "next_round_ready", "waiting_for", "is_final", "missing_lineups", "computed_at", "event_id",
)  # fmt: skip
_SETUP_FIELDS = [f.attname for f in TeamEvent._meta.concrete_fields]


def recompute_event(event_id: int, force: bool = False) -> dict:
    became_final = was_final = False
    with recompute(event_id, SCOPE) as state:
        current = state.computed_at is not None and state.computed_version == state.latest_version
        if not force and current:  # the stamp says current: the progress row must say so too
            progress = Progress.objects.filter(event_id=event_id).values_list("version", flat=True).first()
            if progress == state.latest_version:
                return {"skipped": True, "version": state.latest_version}
        outcome = _Recompute(event_id, state.latest_version).run()
        was_final = outcome.pop("was_final")
        became_final = outcome["final"]
    if became_final:
        _tell_rankings(event_id, "correction" if was_final else "")
    return outcome


def _tell_rankings(event_id: int, reason: str) -> None:
    results_changed(event_id, reason)


def _latest(model, event_id):
    """The pk of each match's latest version of `model` (MatchUpload, LineUp) in the event."""
    newest = model.objects.filter(match=OuterRef("match")).order_by("-number").values("number")[:1]
    return model.objects.filter(match__round__event_id=event_id, number=Subquery(newest)).values("pk")


class _Recompute:
    def __init__(self, event_id, version):
        self.event_id = event_id
        self.version = version
        self._read()
        self.results: dict[int, _Result] = {}
        self.boards: dict[int, list[_BoardRow]] = {}
        self._plans: dict[tuple[int, bool], MatchPlan] = {}

    def _read(self) -> None:
        """Everything in one round trip on PostgreSQL, the same number of queries whatever the size."""
        e = self.event_id
        latest_uploads, latest_lineups = _latest(MatchUpload, e), _latest(LineUp, e)
        (progress, setup, teams, rounds, matches, uploads, boards, seats, roster) = bulk.read_all(
            [
                Progress.objects.filter(event_id=e).values_list("pk", "is_final"),
                TeamEvent.objects.filter(event_id=e).values_list(*_SETUP_FIELDS),
                Team.objects.filter(event_id=e).values_list("pk", "start_number"),
                Round.objects.filter(event_id=e)
                .order_by("number")
                .values_list("pk", "number", "kind", "brackets", "boards", "status"),
                Match.objects.filter(round__event_id=e, round__status=Round.Status.PUBLISHED)
                .order_by("round", "bracket", "table", "pk")
                .values_list("pk", "round_id", "home_id", "away_id", "bracket", "line"),
                MatchUpload.objects.filter(pk__in=latest_uploads).values_list(
                    "pk", "match_id", "imps_only", "home_imps", "away_imps", "boards_played"
                ),
                UploadedBoard.objects.filter(upload__in=latest_uploads)
                .order_by("upload_id", "board")
                .values_list(
                    "upload_id",
                    "board",
                    "open_ns",
                    "closed_ns",
                    "open_contract",
                    "closed_contract",
                    "adjusted_imps",
                ),  # fmt: skip
                LineUpSeat.objects.filter(lineup__in=latest_lineups)
                .order_by("lineup_id", "segment", "team_id", "room", "person_id")
                .values_list("lineup__match_id", "segment", "team_id", "room", "person_id"),
                # a team's players in their order on the entry (EntryMember's ordering)
                EntryMember.objects.filter(entry__team__event_id=e)
                .order_by("entry", "position")
                .values_list("entry__team__pk", "person_id"),
            ]
        )
        self.progress = progress[0] if progress else None  # (pk, is_final), read under the event's lock
        if setup:
            self.setup = TeamEvent(**dict(zip(_SETUP_FIELDS, setup[0], strict=True)))
        else:  # never saved: the defaults, made as the pages make them
            self.setup = setup_of(Event.objects.get(pk=e))
        self.start_numbers = dict(teams)
        self.draft = any(status == Round.Status.DRAFT for *_r, status in rounds)
        self.rounds = [
            _Round(pk, number, kind, brackets, n, [])
            for pk, number, kind, brackets, n, status in rounds
            if status == Round.Status.PUBLISHED
        ]
        by_pk = {r.pk: r for r in self.rounds}
        for pk, round_id, home, away, bracket, line in matches:
            by_pk[round_id].matches.append(_Match(pk, by_pk[round_id], home, away, bracket, line))
        self.matches = [m for r in self.rounds for m in r.matches]
        played = defaultdict(list)
        for upload_id, *row in boards:
            played[upload_id].append(tuple(row))
        self.uploads = {match: _Upload(pk, *rest, played[pk]) for pk, match, *rest in uploads}
        self.seats: dict[int, dict[tuple[int, int, str], list[int]]] = defaultdict(lambda: defaultdict(list))
        for match, segment, team, room, person in seats:
            self.seats[match][(segment, team, room)].append(person)
        self.roster: dict[int, list[int]] = {team: [] for team in self.start_numbers}
        for team, person in roster:
            self.roster.setdefault(team, []).append(person)

    def _plan(self, match, boards) -> MatchPlan:
        boards = boards or match.round.boards
        main = match.bracket == Match.Bracket.MAIN
        plan = self._plans.get((boards, main))
        if plan is None:
            try:
                plan = plan_match(boards, self.setup.plan_options(main_draw=main))
            except ValueError:  # an IMP-only result of a short (Patton) match: one segment
                plan = MatchPlan(boards, (boards,))
            self._plans[(boards, main)] = plan
        return plan

    def run(self) -> dict:
        for match in self.matches:
            self._score(match)
        standings, stage_order = self._standings()
        final, ready, waiting = self._progress()
        places = self._final_places(stage_order, standings) if final else []
        player_boards, missing = self._boards_played()
        butler = self._butler()
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        progress = (self.version, ready, json.dumps(waiting), final, missing, now, self.event_id)
        e = [self.event_id]
        in_event = (
            f"match_id IN (SELECT m.id FROM {_table(Match)} m INNER JOIN {_table(Round)} r "
            "ON r.id = m.round_id WHERE r.event_id = %s)"
        )
        statements = [
            (f"DELETE FROM {_table(MatchResult)} WHERE {in_event}", e),
            (f"DELETE FROM {_table(BoardScore)} WHERE {in_event}", e),
            *((f"DELETE FROM {_table(model)} WHERE event_id = %s", e) for model in _EVENT_ROWS),
        ]
        if self.progress is not None:  # read at the start, under the event's lock: one UPDATE
            assignments = ", ".join(f"{_column(Progress, f)} = %s" for f in PROGRESS_FIELDS[:-1])
            statements.append(
                (
                    f"UPDATE {_table(Progress)} SET {assignments} WHERE id = %s",
                    [*progress[:-1], self.progress[0]],
                )
            )
        bulk.write_all(
            statements,
            [
                (MatchResult, MATCH_FIELDS, self.results.values()),
                (BoardScore, BOARD_FIELDS, (row for rows in self.boards.values() for row in rows)),
                (Standing, STANDING_FIELDS, standings),
                (FinalPlace, FINAL_PLACE_FIELDS, places),
                (PlayerBoards, PLAYER_BOARDS_FIELDS, player_boards),
                (PairButler, BUTLER_FIELDS, butler),
                (Progress, PROGRESS_FIELDS, [progress] if self.progress is None else []),
            ],
        )
        was_final = bool(self.progress and self.progress[1])
        return {
            "skipped": False,
            "version": self.version,
            "final": final,
            "ready": ready,
            "was_final": was_final,
        }

    # --- matches -------------------------------------------------------------------------------------

    def _score(self, match: _Match) -> None:
        stage = match.round.kind == Round.Kind.STAGE
        if match.is_bye:
            home_vp = self.setup.bye_vp if stage else None
            self.results[match.pk] = _Result(
                match.pk, None, ZERO, ZERO, home_vp, None, 0, match.home_id, self.version
            )
            return
        upload = self.uploads.get(match.pk)
        if upload is None:
            return
        if upload.imps_only:
            home, away, boards = upload.home_imps, upload.away_imps, upload.boards_played
        else:
            rows = upload.boards
            scored = match_engine.score_match(
                match_engine.BoardScore(board, open_ns, closed_ns, adjusted)
                for board, open_ns, closed_ns, _o, _c, adjusted in rows
            )
            home, away, boards = scored.home_imps, scored.away_imps, len(rows)
            segment = segment_of_boards([row[0] for row in rows], self._plan(match, boards))
            self.boards[match.pk] = [
                _BoardRow(
                    match.pk,
                    board,
                    segment[board],
                    open_ns,
                    closed_ns,
                    open_contract,
                    closed_contract,
                    imps.difference,
                    imps.home,
                    imps.away,
                    imps.status,
                )  # fmt: skip
                for (board, open_ns, closed_ns, open_contract, closed_contract, _a), imps in zip(
                    rows, scored.boards, strict=True
                )
            ]
        home_vp = away_vp = None
        if stage:
            home_vp, away_vp = match_vp(home - away, boards)
        winner = match.home_id if home > away else match.away_id if away > home else None
        self.results[match.pk] = _Result(
            match.pk, upload.pk, home, away, home_vp, away_vp, boards, winner, self.version
        )

    # --- standings and progress ----------------------------------------------------------------------

    def _standings(self) -> tuple[list[tuple], list[int]]:
        """(Standing rows, the teams in the order of the last complete stage round)."""
        stage_rounds = [r for r in self.rounds if r.kind == Round.Kind.STAGE]
        complete = []
        for r in stage_rounds:  # a round counts once it and every round before it are fully scored
            if all(m.pk in self.results for m in r.matches):
                complete.append(r.number)
            else:
                break
        scored = [
            ScoredMatch(
                r.number, m.home_id, m.away_id, res.home_vp, res.away_vp or ZERO, res.home_imps, res.away_imps
            )
            for r in stage_rounds
            if r.number in complete
            for m in r.matches
            for res in [self.results[m.pk]]
        ]
        tables = standings_by_round(self.start_numbers, scored, complete, self.setup.tiebreak)
        self.complete_stage = len(complete)
        self.tables = tables
        rows = [
            (
                self.event_id,
                round_no,
                row.team,
                row.place,
                row.vp,
                row.imps_won,
                row.imps_lost,
                row.played,
                self.version,
            )  # fmt: skip
            for round_no, table in tables.items()
            for row in table
        ]
        return rows, [row.team for row in tables[complete[-1]]] if complete else []

    def _progress(self) -> tuple[bool, bool, list[int]]:
        waiting = [m.pk for m in self.matches if m.pk not in self.results]
        stage_done = not self.setup.has_stage or self.complete_stage >= self.setup.rounds
        ko_rounds = [r for r in self.rounds if r.kind == Round.Kind.KNOCKOUT]
        tied = any(
            self.results[m.pk].winner_id is None for r in ko_rounds for m in r.matches if m.pk in self.results
        )
        ko_done = not self.setup.has_knockout or (
            bool(ko_rounds) and not waiting and not tied and self._ko_over(ko_rounds[-1])
        )
        final = stage_done and ko_done and not waiting and bool(self.rounds)
        ready = not waiting and not self.draft and not tied and not final
        return final, ready, waiting

    def _winners(self, round_, name) -> dict[int, int]:
        return {
            m.line: self.results[m.pk].winner_id
            for m in round_.matches
            if m.bracket == name and m.away_id is not None and m.pk in self.results
        }

    def _ko_over(self, last) -> bool:
        for name, data in last.brackets.items():
            if len(data["lines"]) != 1:
                return False
            if name == "main" and data["round_no"] == 1 and self.setup.consolation:
                if consolation_draw(ko.from_json(name, data), self._winners(last, name)) is not None:
                    return False
        return True

    def _final_places(self, stage_order, standings) -> list[tuple]:
        """FinalPlace rows."""
        if not self.setup.has_knockout:
            table = sorted(self.tables.get(self.complete_stage, ()), key=lambda row: row.place)
            places = [places_engine.Place(row.team, row.place, row.place) for row in table]
        else:
            brackets = defaultdict(list)
            for r in self.rounds:
                if r.kind != Round.Kind.KNOCKOUT:
                    continue
                for name in r.brackets:
                    matches = [m for m in r.matches if m.bracket == name]
                    brackets[name].append(
                        places_engine.BracketRound(
                            tuple((m.home_id, m.away_id) for m in matches if m.away_id is not None),
                            tuple(m.home_id for m in matches if m.away_id is None),
                            tuple(self.results[m.pk].winner_id for m in matches if m.away_id is not None),
                        )
                    )
            knockout = places_engine.knockout_places(brackets["main"], brackets.get("consolation"))
            places = places_engine.event_places(knockout, stage_order)
        return [(self.event_id, p.team, p.place_from, p.place_to, self.version) for p in places]

    # --- players -------------------------------------------------------------------------------------

    def _boards_played(self) -> tuple[list[tuple], int]:
        """(PlayerBoards rows, segments whose line-up is missing)."""
        segments = []
        for match in self.matches:
            result = self.results.get(match.pk)
            if match.is_bye or result is None:
                continue
            plan = self._plan(match, result.boards)
            seats = self.seats.get(match.pk, {})
            for team in match.team_ids:
                for number, size in enumerate(plan.segments, start=1):
                    players = seats.get((number, team, "open"), []) + seats.get((number, team, "closed"), [])
                    segments.append(rights_engine.Segment(team, size, tuple(players) if players else None))
        rows, missing = rights_engine.boards_played(self.roster, segments)
        return [
            (self.event_id, row.team, row.person, row.boards, row.team_boards, row.has_rights, self.version)
            for row in rows
        ], missing

    def _butler(self) -> list[tuple]:
        """PairButler rows."""
        plays = []
        for match in self.matches:
            seats = self.seats.get(match.pk, {})
            for row in self.boards.get(match.pk, ()):
                home_open = seats.get((row.segment, match.home_id, "open"))
                away_open = seats.get((row.segment, match.away_id, "open"))
                home_closed = seats.get((row.segment, match.home_id, "closed"))
                away_closed = seats.get((row.segment, match.away_id, "closed"))
                key = (match.round.number, row.board)
                if row.open_ns is not None and home_open and away_open:
                    plays.append(
                        butler_engine.Play(
                            key, _pair(match.home_id, home_open), _pair(match.away_id, away_open), row.open_ns
                        )
                    )
                if row.closed_ns is not None and home_closed and away_closed:
                    # The closed room seats the home team East-West.
                    plays.append(
                        butler_engine.Play(
                            key,
                            _pair(match.away_id, away_closed),
                            _pair(match.home_id, home_closed),
                            row.closed_ns,
                        )
                    )
        return [
            (
                self.event_id,
                *score.pair,
                score.boards,
                score.imps,
                score.average,
                score.rank,
                self.version,
            )  # fmt: skip
            for score in butler_engine.butler_pairs(plays)
        ]


_EVENT_ROWS = (Standing, FinalPlace, PlayerBoards, PairButler)


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _column(model, field: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(field).column)


def _pair(team, people) -> tuple[int, int, int]:
    a, b = sorted(people)
    return (team, a, b)
