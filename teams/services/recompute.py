"""What the recompute task does: score every match from its latest upload, then standings, progress,
final places, boards played and the Butler of the pairs, replacing the stored rows in one transaction.

It runs under `results.services.recompute` (the event's row lock, then the version stamp), so two runs
for one event never interleave, and a run that finds the stamp current does nothing: running it twice
gives the same rows.
"""

from collections import defaultdict
from decimal import Decimal
from typing import NamedTuple

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from rankings.services import results_changed
from results import bulk
from results.services import recompute
from teams.engine import match as match_engine
from teams.engine.pairing.knockout import MatchPlan, consolation_draw
from teams.engine.vp import match_vp
from tournaments.models import Event

from ..engine import butler as butler_engine
from ..engine import places as places_engine
from ..engine import rights as rights_engine
from ..engine.standings import ScoredMatch, standings_by_round
from ..models import (
    SCOPE,
    BoardScore,
    FinalPlace,
    LineUp,
    Match,
    MatchResult,
    MatchUpload,
    PairButler,
    PlayerBoards,
    Progress,
    Round,
    Standing,
)
from . import knockout as ko
from .results import plan_of, segment_of_boards
from .setup import rosters, setup_of

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


BOARD_FIELDS = _BoardRow._fields
MATCH_FIELDS = (
    "match_id", "upload_id", "home_imps", "away_imps", "home_vp", "away_vp", "boards", "winner_id", "version",
)  # fmt: skip


def recompute_event(event_id: int, force: bool = False) -> dict:
    became_final = was_final = False
    with recompute(event_id, SCOPE) as state:
        progress = Progress.objects.filter(event_id=event_id).first()
        was_final = bool(progress and progress.is_final)
        if not force and progress and progress.version == state.latest_version == state.computed_version:
            return {"skipped": True, "version": state.latest_version}
        event = Event.objects.select_related("federation").get(pk=event_id)
        outcome = _Recompute(event, state.latest_version, progress).run()
        became_final = outcome["final"]
    if became_final:
        _tell_rankings(event_id, "correction" if was_final else "")
    return outcome


def _tell_rankings(event_id: int, reason: str) -> None:
    results_changed(event_id, reason)


def _plan(match, boards, setup) -> MatchPlan:
    try:
        return plan_of(match, boards, setup)
    except ValueError:  # an IMP-only result of a short (Patton) match: one segment
        return MatchPlan(boards, (boards,))


class _Recompute:
    def __init__(self, event, version, progress=None):
        self.event = event
        self.version = version
        self.setup = setup_of(event)
        self.teams = {t.pk: t for t in event.teams.all()}
        self.rounds = list(
            event.team_rounds.filter(status=Round.Status.PUBLISHED)
            .order_by("number")
            .prefetch_related("matches")
        )
        self.matches = [m for r in self.rounds for m in r.matches.all()]
        for r in self.rounds:
            for m in r.matches.all():
                m.round = r
        self.uploads = self._latest(MatchUpload.objects.prefetch_related("boards"))
        self.lineups = self._latest(LineUp.objects.prefetch_related("seats"))
        self.results: dict[int, MatchResult] = {}
        self.boards: dict[int, list[_BoardRow]] = {}
        self.progress = progress  # read by recompute_event under the event's lock

    def _latest(self, queryset):
        """Each match's latest version only (earlier ones and their boards are not read)."""
        model = queryset.model
        newest = model.objects.filter(match=OuterRef("match")).order_by("-number").values("number")[:1]
        rows = queryset.filter(match__round__event=self.event, number=Subquery(newest))
        return {row.match_id: row for row in rows}

    def run(self) -> dict:
        for match in self.matches:
            self._score(match)
        MatchResult.objects.filter(match__round__event=self.event).delete()
        BoardScore.objects.filter(match__round__event=self.event).delete()
        bulk.insert_rows(
            MatchResult, MATCH_FIELDS, ([getattr(r, f) for f in MATCH_FIELDS] for r in self.results.values())
        )
        bulk.insert_rows(BoardScore, BOARD_FIELDS, (row for rows in self.boards.values() for row in rows))
        stage_order = self._standings()
        final, ready, waiting = self._progress()
        places = self._final_places(stage_order) if final else []
        FinalPlace.objects.filter(event=self.event).delete()
        bulk.insert_rows(
            FinalPlace,
            ("event_id", "team_id", "place_from", "place_to", "version"),
            ((self.event.pk, p.team, p.place_from, p.place_to, self.version) for p in places),
        )
        missing = self._boards_played()
        self._butler()
        values = dict(
            version=self.version,
            next_round_ready=ready,
            waiting_for=waiting,
            is_final=final,
            missing_lineups=missing,
            computed_at=timezone.now(),
        )
        if self.progress is None:
            Progress.objects.create(event=self.event, **values)
        else:  # read once at the start, under the event's lock: one UPDATE
            Progress.objects.filter(pk=self.progress.pk).update(**values)
        return {"skipped": False, "version": self.version, "final": final, "ready": ready}

    # --- matches -------------------------------------------------------------------------------------

    def _score(self, match: Match) -> None:
        stage = match.round.kind == Round.Kind.STAGE
        if match.is_bye:
            self.results[match.pk] = MatchResult(
                match=match,
                home_imps=ZERO,
                away_imps=ZERO,
                home_vp=self.setup.bye_vp if stage else None,
                away_vp=None,
                boards=0,
                winner_id=match.home_id,
                version=self.version,
            )
            return
        upload = self.uploads.get(match.pk)
        if upload is None:
            return
        if upload.imps_only:
            home, away, boards = upload.home_imps, upload.away_imps, upload.boards_played
        else:
            rows = list(upload.boards.all())
            scored = match_engine.score_match(
                match_engine.BoardScore(b.board, b.open_ns, b.closed_ns, b.adjusted_imps) for b in rows
            )
            home, away, boards = scored.home_imps, scored.away_imps, len(rows)
            segment = segment_of_boards([b.board for b in rows], _plan(match, boards, self.setup))
            self.boards[match.pk] = [
                _BoardRow(
                    match.pk,
                    row.board,
                    segment[row.board],
                    row.open_ns,
                    row.closed_ns,
                    row.open_contract,
                    row.closed_contract,
                    imps.difference,
                    imps.home,
                    imps.away,
                    imps.status,
                )
                for row, imps in zip(rows, scored.boards, strict=True)
            ]
        home_vp = away_vp = None
        if stage:
            home_vp, away_vp = match_vp(home - away, boards)
        winner = match.home_id if home > away else match.away_id if away > home else None
        self.results[match.pk] = MatchResult(
            match=match,
            upload=upload,
            home_imps=home,
            away_imps=away,
            home_vp=home_vp,
            away_vp=away_vp,
            boards=boards,
            winner_id=winner,
            version=self.version,
        )

    # --- standings and progress ----------------------------------------------------------------------

    def _standings(self) -> list[int]:
        stage_rounds = [r for r in self.rounds if r.kind == Round.Kind.STAGE]
        complete = []
        for r in stage_rounds:  # a round counts once it and every round before it are fully scored
            if all(m.pk in self.results for m in r.matches.all()):
                complete.append(r.number)
            else:
                break
        scored = [
            ScoredMatch(
                r.number, m.home_id, m.away_id, res.home_vp, res.away_vp or ZERO, res.home_imps, res.away_imps
            )
            for r in stage_rounds
            if r.number in complete
            for m in r.matches.all()
            for res in [self.results[m.pk]]
        ]
        tables = standings_by_round(
            {t.pk: t.start_number for t in self.teams.values()}, scored, complete, self.setup.tiebreak
        )
        Standing.objects.filter(event=self.event).delete()
        bulk.insert_rows(
            Standing,
            (
                "event_id",
                "after_round",
                "team_id",
                "place",
                "vp",
                "imps_won",
                "imps_lost",
                "played",
                "version",
            ),
            (
                (
                    self.event.pk,
                    round_no,
                    row.team,
                    row.place,
                    row.vp,
                    row.imps_won,
                    row.imps_lost,
                    row.played,
                    self.version,
                )  # fmt: skip
                for round_no, rows in tables.items()
                for row in rows
            ),
        )
        self.complete_stage = len(complete)
        return [row.team for row in tables[complete[-1]]] if complete else []

    def _progress(self) -> tuple[bool, bool, list[int]]:
        waiting = [m.pk for m in self.matches if m.pk not in self.results]
        draft = Round.objects.filter(event=self.event, status=Round.Status.DRAFT).exists()
        stage_done = not self.setup.has_stage or self.complete_stage >= self.setup.rounds
        ko_rounds = [r for r in self.rounds if r.kind == Round.Kind.KNOCKOUT]
        tied = any(
            self.results[m.pk].winner_id is None
            for r in ko_rounds
            for m in r.matches.all()
            if m.pk in self.results
        )
        ko_done = not self.setup.has_knockout or (
            bool(ko_rounds) and not waiting and not tied and self._ko_over(ko_rounds[-1])
        )
        final = stage_done and ko_done and not waiting and bool(self.rounds)
        ready = not waiting and not draft and not tied and not final
        return final, ready, waiting

    def _winners(self, round_, name) -> dict[int, int]:
        return {
            m.line: self.results[m.pk].winner_id
            for m in round_.matches.all()
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

    def _final_places(self, stage_order) -> list:
        if not self.setup.has_knockout:
            rows = Standing.objects.filter(event=self.event, after_round=self.complete_stage).order_by(
                "place"
            )
            return [places_engine.Place(s.team_id, s.place, s.place) for s in rows]
        brackets = defaultdict(list)
        for r in self.rounds:
            if r.kind != Round.Kind.KNOCKOUT:
                continue
            for name in r.brackets:
                matches = [m for m in r.matches.all() if m.bracket == name]
                brackets[name].append(
                    places_engine.BracketRound(
                        tuple((m.home_id, m.away_id) for m in matches if m.away_id is not None),
                        tuple(m.home_id for m in matches if m.away_id is None),
                        tuple(self.results[m.pk].winner_id for m in matches if m.away_id is not None),
                    )
                )
        knockout = places_engine.knockout_places(brackets["main"], brackets.get("consolation"))
        return places_engine.event_places(knockout, stage_order)

    # --- players -------------------------------------------------------------------------------------

    def _seats(self, match) -> dict[tuple[int, int, str], list[int]]:
        lineup = self.lineups.get(match.pk)
        seats = defaultdict(list)
        for seat in lineup.seats.all() if lineup else ():
            seats[(seat.segment, seat.team_id, seat.room)].append(seat.person_id)
        return seats

    def _boards_played(self) -> int:
        roster = rosters(self.event)
        segments = []
        for match in self.matches:
            result = self.results.get(match.pk)
            if match.is_bye or result is None:
                continue
            plan = _plan(match, result.boards, self.setup)
            seats = self._seats(match)
            for team in match.team_ids:
                for number, size in enumerate(plan.segments, start=1):
                    players = seats.get((number, team, "open"), []) + seats.get((number, team, "closed"), [])
                    segments.append(rights_engine.Segment(team, size, tuple(players) if players else None))
        rows, missing = rights_engine.boards_played(roster, segments)
        PlayerBoards.objects.filter(event=self.event).delete()
        bulk.insert_rows(
            PlayerBoards,
            ("event_id", "team_id", "person_id", "boards", "team_boards", "has_rights", "version"),
            (
                (
                    self.event.pk,
                    row.team,
                    row.person,
                    row.boards,
                    row.team_boards,
                    row.has_rights,
                    self.version,
                )
                for row in rows
            ),
        )
        return missing

    def _butler(self) -> None:
        plays = []
        for match in self.matches:
            seats = self._seats(match)
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
        PairButler.objects.filter(event=self.event).delete()
        bulk.insert_rows(
            PairButler,
            (
                "event_id",
                "team_id",
                "player_a_id",
                "player_b_id",
                "boards",
                "imps",
                "average",
                "rank",
                "version",
            ),
            (
                (
                    self.event.pk,
                    *score.pair,
                    score.boards,
                    score.imps,
                    score.average,
                    score.rank,
                    self.version,
                )
                for score in butler_engine.butler_pairs(plays)
            ),
        )


def _pair(team, people) -> tuple[int, int, int]:
    a, b = sorted(people)
    return (team, a, b)
