"""Table entry (VSz 12, issue #18): the table's phones enter and confirm their current round's results.

A director makes a code for every table of a session's generated movement (`create_codes`). Whoever holds
a table's code may write only that table's current round (`current_round`: the first round of the movement
at that table with a board still open), and every board, round and pair id the phone sends is checked
against it here, on the server (`send`). Entries are append-only rows (`TableEntry`): North's result,
East's confirmation or dispute. A resend with the same idempotency key answers what the first one got; an
entry built on a result the phone had not seen (`based_on`) is a `Conflict` that shows the one stored.

A confirmed result is written through the one upload seam (`uploads.submit`, kind TABLE: the traveller
path replacing this table's rows of the board only, which asks for the partial `boards` recompute). When
that needs the director's word (a decision in force on the board) or is refused, the confirmation is still
stored, with the reason, and the control room shows it.
"""

import re
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from bridge.engine import round_clock
from bridge.engine.csv_upload import Problem, result_of
from bridge.engine.scoring.contract import board_dealer, board_vulnerability
from tournaments.engine import clock as shared_clock
from tournaments.engine import table_codes
from tournaments.services import director_alerts

from ..models import PairSession, RoundCall, RoundClock, SessionPair, TableCode, TableEntry
from . import decisions, upload_readers, uploads, versions
from .upload_errors import explain

Kind = TableEntry.Kind
_KEY = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class EntryRefused(Exception):
    """The entry is refused (nothing was written); `messages` say why."""

    def __init__(self, *messages):
        self.messages = [str(m) for m in messages]
        super().__init__("; ".join(self.messages))


class Conflict(Exception):
    """The phone answered or replaced a result other than the table's latest: `current` is the latest."""

    def __init__(self, current: TableEntry | None):
        self.current = current
        super().__init__(_("Another phone of this table entered this board first."))


# --- the codes ------------------------------------------------------------------------------------------


def create_codes(session: PairSession, user) -> list[TableCode]:
    """A code for every table of the session's generated movements that has none yet; returns all codes.
    A section whose movement came from an upload has no tables to name (nothing is made for it)."""
    with transaction.atomic():
        session = PairSession.objects.select_for_update().get(pk=session.pk)
        taken = set(TableCode.objects.filter(session=session).values_list("section_id", "table"))
        for section in session.sections.all():
            plan = section.plan()
            if plan is None:
                continue
            for table in sorted({a.table for a in plan.assignments}):
                if (section.pk, table) in taken:
                    continue
                for _attempt in range(20):  # 25^6 codes: a clash is rare, twenty in a row impossible
                    try:
                        with transaction.atomic():
                            TableCode.objects.create(
                                session=session,
                                section=section,
                                table=table,
                                code=table_codes.new_code(),
                                created_by=user,
                            )
                        break
                    except IntegrityError:
                        continue
    return codes_of(session)


def codes_of(session: PairSession) -> list[TableCode]:
    return list(
        TableCode.objects.filter(session=session).select_related("section").order_by("section", "table")
    )


def find_code(text: str) -> TableCode | None:
    code = table_codes.normalise(text)
    if not table_codes.well_formed(code):
        return None
    return (
        TableCode.objects.select_related("session__event", "session__announced", "section", "created_by")
        .filter(code=code)
        .first()
    )


# --- the table's round ----------------------------------------------------------------------------------


@dataclass
class BoardState:
    board: int
    dealer: str
    vulnerability: str
    result: TableEntry | None = None  # the latest result entered
    answer: TableEntry | None = None  # its confirmation or dispute, if any
    in_version: bool = False  # the session's latest version has this table's result (a file, a traveller)

    @property
    def status(self) -> str:
        """open, entered, confirmed, disputed, pending (confirmed, waiting for the director), or filed (the
        director has the table's result: a file, the traveller; a dispute he settled there, too)."""
        if self.answer is not None and self.answer.kind == Kind.CORRECTION:
            return "corrected"
        if self.answer is not None and self.answer.kind == Kind.CONFIRM:
            return "pending" if self.answer.version_id is None else "confirmed"
        if self.in_version:
            return "filed"
        if self.answer is not None:
            return "disputed"
        return "entered" if self.result is not None else "open"

    @property
    def done(self) -> bool:
        return self.status in ("confirmed", "pending", "filed", "corrected")

    @property
    def latest(self) -> TableEntry | None:
        return self.answer or self.result


@dataclass
class TableRound:
    code: TableCode
    round: int
    rounds: int
    ns: SessionPair
    ew: SessionPair
    boards: list[BoardState] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return all(b.done for b in self.boards)

    def board(self, number: int) -> BoardState | None:
        return next((b for b in self.boards if b.board == number), None)


def _seats(section, numbers) -> dict[int, list[SessionPair]]:
    """The section's seats of these pair numbers (a table meets a few of a big field's pairs)."""
    out: dict[int, list[SessionPair]] = {}
    for seat in SessionPair.objects.filter(section=section, number__in=numbers).select_related(
        "pair__player1", "pair__player2", "section"
    ):
        out.setdefault(seat.number, []).append(seat)
    return out


def _seat(seats, number: int, direction: str) -> SessionPair | None:
    found = seats.get(number, [])
    if len(found) == 1:
        return found[0]
    return next((s for s in found if s.direction == direction), None)


def table_rounds(code: TableCode, latest_rows=None) -> list[TableRound]:
    """Every round of the movement at the code's table, with each board's state (the pairs seated)."""
    plan = code.section.plan()
    if plan is None:
        return []
    here = [a for a in plan.assignments if a.table == code.table]
    seats = _seats(code.section, {n for a in here for n in (a.ns, a.ew)})
    entries: dict[int, list[TableEntry]] = {}
    for entry in TableEntry.objects.filter(code=code).order_by("pk"):
        entries.setdefault(entry.board, []).append(entry)
    if latest_rows is None:  # a phone's page: the rows of this table's N-S pairs only, not the session's
        filed = set(
            versions.results_of(versions.latest_version(code.session))
            .filter(ns_id__in=[seat.pk for found in seats.values() for seat in found])
            .order_by()
            .values_list("board", "ns_id", "ew_id")
        )
    else:
        filed = {(r["board"], r["ns_id"], r["ew_id"]) for r in latest_rows}
    out = []
    for a in sorted(here, key=lambda a: a.round):
        ns, ew = _seat(seats, a.ns, "NS"), _seat(seats, a.ew, "EW")
        if ns is None or ew is None:
            continue  # a pair not seated (yet): nothing to enter at this table in this round
        table_round = TableRound(code, a.round, plan.rounds, ns, ew)
        for number in a.boards:
            state = BoardState(number, board_dealer(number), board_vulnerability(number))
            state.in_version = (number, ns.pk, ew.pk) in filed
            for entry in entries.get(number, []):
                if entry.ns_id != ns.pk or entry.ew_id != ew.pk:
                    continue
                if entry.kind == Kind.RESULT:
                    state.result, state.answer = entry, None
                elif entry.kind == Kind.CORRECTION:
                    state.result = state.answer = entry
                elif state.result is not None and entry.based_on_id == state.result.pk:
                    state.answer = entry
            table_round.boards.append(state)
        out.append(table_round)
    return out


def called_round(session: PairSession) -> int:
    """The highest round the director called ("next round"); 0: none called."""
    return RoundCall.objects.filter(session=session).aggregate(called=Max("round"))["called"] or 0


def current_of(rounds: list[TableRound], called: int) -> TableRound | None:
    """The first round with a board still open, not before the round the director called (the boards a
    late table left open stay for the director); None when the table has finished."""
    return next((r for r in rounds if not r.done and r.round >= called), None)


def current_round(code: TableCode, latest_rows=None, called: int | None = None) -> TableRound | None:
    """The table's current round (`current_of`); None when the table has finished (or has none)."""
    if called is None:
        called = called_round(code.session)
    return current_of(table_rounds(code, latest_rows), called)


# --- entries --------------------------------------------------------------------------------------------


@dataclass
class Answer:
    entry: TableEntry
    repeated: bool = False  # the same key was sent before: nothing new was written


def _int(value, what) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise EntryRefused(_("%(what)s is not a number.") % {"what": what})


def send(
    code: TableCode,
    *,
    key: str,
    kind: str,
    round,
    board,
    ns,
    ew,
    contract: str = "",
    declarer: str = "",
    lead: str = "",
    result: str = "",
    based_on=None,
    note: str = "",
) -> Answer:
    """Store one thing a table's phone sent, after checking it against the table's current round.

    Refusals: EntryRefused (not this table's round, board or pairs, an impossible result, a closed
    session), Conflict (built on another result than the table's latest). A key sent before answers what
    it got then, whatever else the resend says."""
    key = str(key or "")
    if not _KEY.match(key):
        raise EntryRefused(_("The entry has no valid idempotency key."))
    if kind not in (Kind.RESULT, Kind.CONFIRM, Kind.DISPUTE):  # the director's correction is not the phone's
        raise EntryRefused(_("Unknown kind of entry."))
    with transaction.atomic():
        code = (
            TableCode.objects.select_for_update().select_related("session__event", "section").get(pk=code.pk)
        )
        repeated = TableEntry.objects.filter(code=code, key=key).first()
        if repeated is not None:
            return Answer(repeated, repeated=True)
        if code.session.published_at is not None:
            raise EntryRefused(_("The results of this session are published: ask the director."))
        round, board = _int(round, _("Round")), _int(board, _("Board"))
        ns, ew = _int(ns, _("N-S pair")), _int(ew, _("E-W pair"))
        based_on = None if based_on in (None, "", "null") else _int(based_on, _("Based on"))
        now = current_round(code)
        if now is None:
            raise EntryRefused(_("This table has no round left to enter."))
        if round != now.round:
            raise EntryRefused(
                _("Round %(round)s is not this table's current round (round %(current)s).")
                % {"round": round, "current": now.round}
            )
        state = now.board(board)
        if state is None:
            raise EntryRefused(
                _("Board %(board)s is not played at this table in round %(round)s.")
                % {"board": board, "round": now.round}
            )
        if (ns, ew) != (now.ns.pk, now.ew.pk):
            raise EntryRefused(_("These pairs do not play at this table in this round."))
        if state.done:
            raise EntryRefused(
                _("Board %(board)s is already confirmed: ask the director.") % {"board": board}
            )
        fields = {"code": code, "key": key, "round": round, "board": board, "ns": now.ns, "ew": now.ew}
        if kind == Kind.RESULT:
            values = _checked(code, now, board, contract, declarer, lead, result)
            current = state.result
            if based_on != (current.pk if current else None):
                if current is not None and _same(current, values):
                    return Answer(current, repeated=True)  # both phones entered the same: no conflict
                raise Conflict(current)
            entry = TableEntry.objects.create(kind=kind, based_on=current, **values, **fields)
            return Answer(entry)
        if state.result is None:
            raise EntryRefused(_("Board %(board)s has no result to confirm yet.") % {"board": board})
        if based_on != state.result.pk or state.answer is not None:
            raise Conflict(state.latest)
        version, problem = None, ""
        if kind == Kind.CONFIRM:
            version, problem = _write_version(code, now, state.result)
        entry = TableEntry.objects.create(
            kind=kind,
            based_on=state.result,
            note=str(note or "")[:300],
            version=version,
            problem=problem[:500],
            **fields,
        )
        if kind == Kind.DISPUTE:
            _alert(code, entry)
        return Answer(entry)


def _alert(code: TableCode, entry: TableEntry) -> None:
    """The event's directors hear of the dispute beyond the control room: mailed once per dispute."""
    session = code.session
    director_alerts.raise_alert(
        session.event,
        key=f"bridge-dispute:{entry.pk}",
        game="bridge",
        table=code.table,
        round=entry.round,
        board=entry.board,
        note=entry.note,
        url_name="bridge_control_room",
        url_args=[session.pk],
    )


def _labels(now: TableRound) -> tuple[str, str]:
    return now.ns.code, now.ew.code


def _checked(code, now, board, contract, declarer, lead, result) -> dict:
    """The entry in the engine's notation, scored; EntryRefused with the reason for an impossible one."""
    ns, ew = _labels(now)
    contract, declarer, result = str(contract or "").strip(), str(declarer or "").strip(), str(result or "")
    parts = contract.split()
    if len(parts) == 3 and not declarer and not result.strip():  # the whole line: "4♠ K =", "4S E +1"
        contract, declarer, result = parts
    try:
        contract, declarer, lead, tricks, score, artificial = result_of(
            board, ns, ew, contract, declarer, str(lead or ""), result, ""
        )
    except Problem as problem:
        raise EntryRefused(explain(problem))
    return {"contract": contract, "declarer": declarer, "lead": lead, "tricks": tricks, "score": score}


def _same(entry: TableEntry, values: dict) -> bool:
    return all(getattr(entry, name) == value for name, value in values.items())


def _write_version(code: TableCode, now: TableRound, entry: TableEntry):
    """The confirmed result as a new version (the one seam); (version, "") or (None, why not)."""
    ns, ew = _labels(now)
    line = {
        "ns": ns,
        "ew": ew,
        "table": code.table,
        "contract": entry.contract,
        "declarer": entry.declarer,
        "lead": entry.lead,
        "result": "" if entry.tricks is None else str(entry.tricks),
        "score": "",
    }
    note = _("table entry: table %(table)s, board %(board)s") % {"table": code.table, "board": entry.board}
    try:
        with transaction.atomic():
            version = uploads.submit(
                code.session,
                upload_readers.TABLE,
                user=code.created_by,
                board=entry.board,
                lines=[line],
                note=note,
            )
    except decisions.DecisionsPending:
        return None, _("A decision in force on this board needs the director's word.")
    except uploads.UploadError as error:
        return None, "; ".join(error.messages)
    return version, ""


# --- the director's control room ------------------------------------------------------------------------


@dataclass
class TableProgress:
    code: TableCode
    current: TableRound | None
    rounds: list[TableRound]
    late: bool = False  # the round clock's time is over and this table still has a board of it missing

    @property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.rounds:
            for b in r.boards:
                out[b.status] = out.get(b.status, 0) + 1
        return out


def control_room(session: PairSession) -> tuple[list[TableProgress], list[tuple[TableRound, BoardState]]]:
    """Every coded table's progress, and the boards waiting for the director (disputed, or confirmed but
    not applied)."""
    rows = versions.rows_of(versions.latest_version(session))
    called = called_round(session)
    tables, waiting = [], []
    for code in codes_of(session):
        code.session = session
        rounds = table_rounds(code, rows)
        tables.append(TableProgress(code, current_of(rounds, called), rounds))
        for r in rounds:
            for b in r.boards:
                # Disputed, confirmed but not applied, or left open when the director called a later round.
                if b.status in ("disputed", "pending") or (r.round < called and not b.done):
                    waiting.append((r, b))
    return tables, waiting


# --- the round clock (VSz 31) ---------------------------------------------------------------------------


class Clock(shared_clock.Reading):
    """A session's round clock as the pages show it (the shared reading, with its round's number)."""

    @property
    def round(self) -> int:
        return self.row.round


def boards_per_round(session: PairSession) -> int:
    """The boards of a round in the session's generated movements (the most, if sections differ); 0: none."""
    plans = [s.plan() for s in session.sections.all()]
    return max((p.boards_per_round for p in plans if p is not None), default=0)


def rounds_of(session: PairSession) -> int:
    plans = [s.plan() for s in session.sections.all()]
    return max((p.rounds for p in plans if p is not None), default=0)


def playing_round(session: PairSession, tables: list[TableProgress] | None = None) -> int:
    """The round being played: the earliest current round of the coded tables (1 when none has one)."""
    if tables is None:
        tables = control_room(session)[0]
    current = [t.current.round for t in tables if t.current]
    return min(current) if current else 1


def start_clock(
    session: PairSession, user, *, round, screens_or_beginners=False, change_minute=False, minutes=None
) -> RoundClock:
    """Start (or start again) the clock of a round (none given: the round being played) now; the time limit is VSz 31's unless the director
    gives his own (`minutes`: the rule leaves the playing time to him). EntryRefused when it cannot."""
    rounds, boards = rounds_of(session), boards_per_round(session)
    if not rounds or not boards:
        raise EntryRefused(_("No section of this session has a generated movement to time."))
    round = playing_round(session) if round in (None, "") else _int(round, _("Round"))
    if not 1 <= round <= rounds:
        raise EntryRefused(_("The session has rounds 1 to %(rounds)s.") % {"rounds": rounds})
    if minutes in (None, ""):
        minutes = round_clock.time_limit(
            boards, screens_or_beginners=bool(screens_or_beginners), change_minute=bool(change_minute)
        )
    else:
        minutes = _int(minutes, _("Minutes"))
        if not 1 <= minutes <= 240:
            raise EntryRefused(_("The time limit is 1 to 240 minutes."))
    return RoundClock.objects.create(
        session=session,
        round=round,
        started_at=timezone.now(),
        minutes=minutes,
        screens_or_beginners=bool(screens_or_beginners),
        started_by=user,
    )


def clock_of(session: PairSession, round: int | None = None) -> Clock | None:
    """The clock last started in the session (of `round`, if given); None: none started."""
    rows = RoundClock.objects.filter(session=session)
    if round is not None:
        rows = rows.filter(round=round)
    row = rows.order_by("-started_at", "-pk").first()
    if row is None:
        return None
    return Clock(row, timezone.now())


def mark_late(tables: list[TableProgress], clock: Clock | None) -> None:
    """Set `late` on the tables the engine finds late for the clock's round."""
    if clock is None:
        return
    states = [
        round_clock.TableState(
            t,
            t.current.round if t.current else None,
            len(t.current.boards) if t.current else 0,
            sum(1 for b in t.current.boards if b.done) if t.current else 0,
        )
        for t in tables
    ]
    late = round_clock.late_tables(clock.round, clock.row.started_at, clock.minutes, clock.now, states)
    for state in late:
        state.table.late = True
