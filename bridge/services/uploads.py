"""A session's results from a PBN, USEBIO or CSV file or the director's web traveller, as a new version.

All three become the same `Row`s, are checked against the session as a whole (pairs seated, a pair once
per board, boards in play) and only then written: a file with any error writes nothing and says where
(line, or board and table). A PBN or CSV upload replaces the session's results; a traveller replaces one
board's. Penalties, which files do not carry, are kept from the previous version, and so are the results of
a withdrawn pair the new rows say nothing about (the export leaves out results a withdrawal deleted). The
decisions in force (corrections, rulings, penalties) are re-applied on top (`decisions`): one the file
touches waits for the director's keep / re-confirm / set aside. The files and the traveller are read into
`Row`s by `upload_readers`; this module checks them against the session and writes them.
"""

import re
from collections import defaultdict

from django.db import transaction
from django.utils.translation import gettext as _

from results.models import VersionedUpload
from results.upload_input import read_upload_text

from ..models import IndividualEvent, Pair, PairSession, ResultVersion, Section, SessionPair
from . import decisions, individual, versions
from .upload_errors import UploadError
from .upload_readers import (
    CSV,
    FORM,
    PBN,
    TABLE,
    USEBIO,
    Parsed,
    Row,
    parse_csv,
    parse_pbn,
    parse_traveller,
    parse_usebio,
)

Source = VersionedUpload.Source
SOURCE_OF = {PBN: Source.PBN, USEBIO: Source.USEBIO, CSV: Source.CSV, FORM: Source.FORM, TABLE: Source.TABLE}
_LABEL = re.compile(r"^([A-Za-z]{0,2})(\d{1,4})$")

# --- the one way in: pages and API ---------------------------------------------------------------------


def submit(
    session: PairSession | IndividualEvent,
    kind: str,
    *,
    user,
    file=None,
    text: str | None = None,
    file_name: str = "",
    board: int | None = None,
    lines: list[dict] | None = None,
    note: str = "",
    accept_warnings: bool = False,
    **answers,
) -> ResultVersion:
    """A session's new results from the pages or the API, the one seam both call.

    `kind` PBN, USEBIO or CSV: an uploaded `file` (read under the size limit and decoded, results.upload_input),
    or its `text` already read (a kept upload resumed); FORM: the web traveller's `lines` of `board`;
    TABLE: a table's confirmed entry (bridge.services.table_entry), `lines` of `board` like the traveller's
    that replace only their own pairs' rows of the board (the partial `boards` recompute alike).
    Parsed by the engine, checked and written as a new version with the decisions in force (`upload`,
    which takes `answers`: resolutions, reasons, expected_base, dry_run); the recompute is requested for
    after the commit. Refusals: UploadInputError (size, encoding), UploadError (the content), and
    decisions.DecisionsPending, whose `submission` is what to keep to resume the upload with `submit`.
    Given an individual event (`IndividualEvent`) instead of a session: its CSV or PBN file with player
    numbers, as a new version of the event with the decisions in force (`services.individual.submit`,
    which takes the same `answers`)."""
    if isinstance(session, IndividualEvent):
        return individual.submit(
            session, kind, user=user, file=file, text=text, file_name=file_name, note=note, **answers
        )
    if kind in (FORM, TABLE):
        submission = {"kind": kind, "board": board, "lines": lines, "note": note}
        parsed = parse_traveller(board, lines)
        parsed.own_rows_only = kind == TABLE
    else:
        if file is not None:
            text = read_upload_text(file)
            file_name = file_name or file.name
        submission = {"kind": kind, "text": text, "note": note, "file_name": file_name}
        parsed = {PBN: parse_pbn, USEBIO: parse_usebio, CSV: parse_csv}[kind](text)
    if parsed.warnings and not accept_warnings:  # the director reads the warnings before anything is saved
        answers["dry_run"] = True
    try:
        return upload(
            session,
            parsed,
            source=SOURCE_OF[kind],
            user=user,
            note=note,
            file_name=file_name,
            raw=text or "",
            **answers,
        )
    except decisions.DecisionsPending as pending:
        pending.submission, pending.warnings = submission, parsed.warnings
        raise


# --- against the session --------------------------------------------------------------------------------


class _Seat:
    """A seated pair as an upload needs it (its id, number, direction and section letter): read as plain
    values, not as a SessionPair with its Section per pair."""

    __slots__ = ("pk", "number", "direction", "letter")

    def __init__(self, pk: int, number: int, direction: str, letter: str):
        self.pk, self.number, self.direction, self.letter = pk, number, direction, letter


class _Seating:
    """Finds the seated pair a file's label means: by section letter and number, then by direction."""

    def __init__(self, session: PairSession, rows: list[Row], seats: list[tuple]):
        """`seats`: the rows of `seats_query(session)`."""
        self.sections = {s.letter: s for s in session.sections.all()}
        self.by_number: dict[tuple[str, int], list[_Seat]] = defaultdict(list)
        self.ew_in_order: dict[str, list[_Seat]] = defaultdict(list)
        for values in seats:
            pair = _Seat(*values)
            self.by_number[(pair.letter, pair.number)].append(pair)
            if pair.direction == SessionPair.Direction.EW:
                self.ew_in_order[pair.letter].append(pair)
        for pairs in self.ew_in_order.values():
            pairs.sort(key=lambda p: p.number)
        # A file numbering both directions 1..n shows the same label on both sides of one board.
        ns_of: dict[int, set] = {}
        ew_of: dict[int, set] = {}
        for row in rows:
            board = row.board
            if board in ns_of:
                ns_of[board].add(row.ns)
                ew_of[board].add(row.ew)
            else:
                ns_of[board], ew_of[board] = {row.ns}, {row.ew}
        self.by_direction = any(ns & ew_of[board] for board, ns in ns_of.items())
        self._found: dict[tuple[str, str], _Seat | None] = {}

    @staticmethod
    def seats_query(session: PairSession):
        """The session's seated pairs as `_Seat` values, in the model's order."""
        return SessionPair.objects.filter(section__session=session).values_list(
            "pk", "number", "direction", "section__letter"
        )

    @property
    def empty(self) -> bool:
        return not self.by_number

    def split(self, label: str) -> tuple[str, int] | None:
        match = _LABEL.match(label)
        if not match:
            return None
        letter, number = match.group(1).upper(), int(match.group(2))
        if not letter:
            if len(self.sections) > 1:
                return None
            letter = next(iter(self.sections), "A")
        return letter, number

    def find(self, label: str, side: str) -> _Seat | None:
        # A session's file names each pair on every board it plays: found once per label and side.
        known = self._found.get((label, side), self)
        if known is not self:
            return known
        self._found[(label, side)] = found = self._find(label, side)
        return found

    def _find(self, label: str, side: str) -> _Seat | None:
        key = self.split(label)
        if key is None:
            return None
        found = self.by_number.get(key, [])
        if len(found) == 1:
            return found[0]
        for pair in found:
            if pair.direction == side:
                return pair
        if not found and self.by_direction and side == "EW":
            ordered = self.ew_in_order.get(key[0], [])
            if 1 <= key[1] <= len(ordered):
                return ordered[key[1] - 1]
        return None


def _plan_new_pairs(session: PairSession, parsed: Parsed, seating: _Seating) -> dict[tuple[str, str], tuple]:
    """When nobody is seated yet the file defines the movement: (label, side) -> (letter, number, dir)."""
    sides: dict[tuple[str, int], set[str]] = defaultdict(set)
    for row in parsed.rows:
        for label, side in ((row.ns, "NS"), (row.ew, "EW")):
            match = _LABEL.match(label)
            if match:
                sides[(match.group(1).upper() or "A", int(match.group(2)))].add(side)
    plan = {}
    for row in parsed.rows:
        for label, side in ((row.ns, "NS"), (row.ew, "EW")):
            match = _LABEL.match(label)
            if not match:
                continue
            key = (match.group(1).upper() or "A", int(match.group(2)))
            if seating.by_direction:
                direction = side
            else:
                direction = side if len(sides[key]) == 1 else ""
            plan[(label, side)] = (*key, direction)
    return plan


def _tables(sections) -> dict[tuple[int, str, int, int], int]:
    """(board, section, NS number, EW number) -> table, from the generated movements of `sections`."""
    tables = {}
    for section in sections:
        plan = section.plan()
        if plan is None:
            continue
        for a in plan.assignments:
            for board in a.boards:
                tables[(board, section.letter, a.ns, a.ew)] = a.table
    return tables


def _resolve(session: PairSession, parsed: Parsed, seats: list[tuple]):
    """Rows as version rows; returns (rows, new pairs to create, errors, the session's sections). Writes
    nothing. `seats`: the rows of `_Seating.seats_query(session)`."""
    seating = _Seating(session, parsed.rows, seats)
    errors: list[str] = []
    plan = _plan_new_pairs(session, parsed, seating) if seating.empty else {}
    generated = any(s.movement != Section.Movement.UPLOADED for s in seating.sections.values())
    tables = _tables(seating.sections.values()) if generated else {}
    seen: dict[tuple[int, object], str] = {}
    out = []
    # (label, side) -> (the pair, its key, its section's letter) or None: worked out once per label, as a
    # session's file names each pair on every board it plays
    known: dict[tuple[str, str], tuple | None] = {}

    def lookup(label: str, side: str):
        found = known.get((label, side), known)
        if found is known:
            pair = plan.get((label, side)) if plan else seating.find(label, side)
            if pair is None:
                found = None
            elif isinstance(pair, tuple):
                found = (pair, pair, None)
            else:
                found = (pair, pair.pk, pair.letter)
            known[(label, side)] = found
        return found

    last = session.boards if generated else 0
    for row in parsed.rows:
        ns_found, ew_found = lookup(row.ns, "NS"), lookup(row.ew, "EW")
        if ns_found is None or ew_found is None:
            for found, label, side in ((ns_found, row.ns, "NS"), (ew_found, row.ew, "EW")):
                if found is None:
                    errors.append(
                        _("%(where)s: pair %(pair)s (%(side)s) is not seated in this session")
                        % {"where": row.where, "pair": label, "side": side}
                    )
            continue
        board = row.board
        if last and board > last:
            errors.append(
                _("%(where)s: board %(board)s is not in play in this session (boards 1-%(last)s)")
                % {"where": row.where, "board": board, "last": last}
            )
            continue
        (ns, ns_key, letter), (ew, ew_key, _letter) = ns_found, ew_found
        if ns_key == ew_key:
            errors.append(_("%(where)s: a pair cannot play against itself") % {"where": row.where})
            continue
        for key, label in (((board, ns_key), row.ns), ((board, ew_key), row.ew)):
            first = seen.get(key)
            if first is not None:
                errors.append(
                    _("%(where)s: pair %(pair)s already has a result on board %(board)s (%(first)s)")
                    % {"where": row.where, "pair": label, "board": board, "first": first}
                )
            else:
                seen[key] = row.where
        table = row.table
        if table is None and not plan:
            table = tables.get((board, letter, ns.number, ew.number))
        out.append((row, ns, ew, table))
    return out, plan, errors, list(seating.sections.values())


def upload(
    session: PairSession,
    parsed: Parsed,
    *,
    source: str,
    user,
    note: str = "",
    file_name: str = "",
    raw: str = "",
    resolutions: dict | None = None,
    reasons: dict | None = None,
    expected_base: int | None = None,
    dry_run: bool = False,
) -> ResultVersion:
    """Check everything, then write the new version in one transaction (UploadError: nothing written).

    The decisions in force (corrections, adjustments, appeal decisions) are re-applied on the new rows;
    one the new rows touch needs the director's word first (`decisions.settle`): without it
    `decisions.DecisionsPending` is raised and nothing is written (always with `dry_run`: the check alone)."""
    with transaction.atomic():
        event_version = versions.lock_event_for_version(session.event_id)  # the event's one lock
        # the session row alone locked; its announced session and event come along (the audit log names them)
        session = (
            PairSession.objects.select_for_update(of=("self",))
            .select_related("announced", "event")
            .get(pk=session.pk)
        )
        # one round trip: the version before, its rows (read once: the traveller's kept rows, the decisions,
        # the changed boards), its penalties, the seats and the withdrawn pairs
        base, base_rows, base_penalties, seats, withdrawn = versions.read_latest(
            session, _Seating.seats_query(session), _withdrawn_query(session)
        )
        resolved, plan, errors, sections = _resolve(session, parsed, seats)
        if errors:
            raise UploadError(errors[:50])
        created = _create_pairs(session, plan, parsed.names) if plan else {}
        rows = []
        if parsed.only_boards is not None:
            replaced = {
                (row.board, pair.pk)
                for row, ns, ew, _table in resolved
                for pair in (ns, ew)
                if parsed.own_rows_only and not isinstance(pair, tuple)
            }
            rows = [
                r
                for r in base_rows
                if r["board"] not in parsed.only_boards
                or (
                    parsed.own_rows_only
                    and (r["board"], r["ns_id"]) not in replaced
                    and (r["board"], r["ew_id"]) not in replaced
                )
            ]
        for row, ns, ew, table in resolved:
            rows.append(
                {
                    "board": row.board,
                    "table": table,
                    "ns_id": created[ns].pk if isinstance(ns, tuple) else ns.pk,
                    "ew_id": created[ew].pk if isinstance(ew, tuple) else ew.pk,
                    "contract": row.contract,
                    "declarer": row.declarer,
                    "lead": row.lead,
                    "tricks": row.tricks,
                    "score": row.score,
                    "artificial": row.artificial,
                    "deal_group": None,  # every field: the version's writer and digest read rows whole
                }
            )
        fresh = list(rows) if parsed.only_boards is None else rows[len(rows) - len(resolved) :]
        if parsed.only_boards is None:  # a whole file (a traveller edits its board's rows as shown)
            rows.extend(_kept_rows_of_withdrawn_pairs({pk for (pk,) in withdrawn}, rows, base_rows))
        try:
            settled = decisions.settle(
                base,
                rows,
                base_penalties,
                fresh=fresh,
                resolutions=resolutions,
                reasons=reasons,
                expected_base=expected_base,
                dry_run=dry_run,
                base_rows=base_rows,
            )
        except decisions.ResolutionError as error:
            raise UploadError(error.messages)
        rows = settled.rows
        deals = {int(k): v for k, v in (base.deals if base else {}).items()}
        deals.update(parsed.deals)
        last_board = max((r["board"] for r in rows), default=0)
        resized = False
        if last_board > session.boards and not any(s.movement != Section.Movement.UPLOADED for s in sections):
            session.boards = last_board
            session.save(update_fields=["boards"])
            resized = True
        # An upload that seats no new pair and leaves the session's shape alone changes its boards only:
        # the partial recompute rescores them (the decisions re-applied may touch more boards: all counted).
        # So does a whole file that brings no new deal (a scoring program sending the session again after
        # each table's result: the boards whose rows differ; deals would need their hand records).
        # (write_version adds the boards whose rows differ from the version before's: it stores only those)
        changed = None
        if base is not None and not created and not resized:
            if parsed.only_boards is not None:
                changed = set(parsed.only_boards)
            elif deals == {int(k): v for k, v in (base.deals or {}).items()}:
                changed = set()
        version = versions.write_version(
            session,
            rows,
            settled.penalties,
            source=source,
            user=user,
            note=note,
            file_name=file_name,
            raw=raw,
            deals=deals,
            base=base,
            event_version=event_version,
            changed_boards=changed,
            base_is_latest=True,  # read under the event's lock above
            base_rows=base_rows,
        )
        decisions.record(version, settled)
        return version


def _withdrawn_query(session: PairSession):
    """The session's seats of pairs withdrawn in it or before (VSz 25), as (pk,) rows."""
    return SessionPair.objects.filter(
        section__session=session,
        pair__withdrawal__isnull=False,
        pair__withdrawal__session__number__lte=session.number,
    ).values_list("pk")


def _kept_rows_of_withdrawn_pairs(withdrawn: set[int], rows: list[dict], base_rows: list[dict]) -> list[dict]:
    """The previous version's rows of a withdrawn pair (VSz 25) when a whole file has none of that pair.

    A file that says nothing about a pair that withdrew leaves its results as they were: the session's PBN
    export leaves out the results a withdrawal deleted, and without them the recompute could not tell the
    opponents the pair met before it left (their boards are deleted too) from those it no longer met (they
    get average-plus). A kept row whose board already has a new row for either of its pairs is dropped.
    `withdrawn`: the seats of `_withdrawn_query`; `base_rows`: the previous version's rows (none: no version).
    """
    if not base_rows:
        return []
    silent = withdrawn - {pair for row in rows for pair in (row["ns_id"], row["ew_id"])}
    if not silent:
        return []
    taken = {(row["board"], pair) for row in rows for pair in (row["ns_id"], row["ew_id"])}
    return [
        row
        for row in base_rows
        if (row["ns_id"] in silent or row["ew_id"] in silent)
        and (row["board"], row["ns_id"]) not in taken
        and (row["board"], row["ew_id"]) not in taken
    ]


def _create_pairs(session: PairSession, plan: dict, names: dict[str, str]) -> dict[tuple, SessionPair]:
    """Seat the pairs an upload defines; an event pair of an earlier session with the same name is reused."""
    by_name = {p.name: p for p in Pair.objects.filter(event_id=session.event_id).exclude(name="")}
    created: dict[tuple, SessionPair] = {}
    label_of = {seat: label for (label, _side), seat in plan.items()}
    sections = {s.letter: s for s in session.sections.all()}
    for seat in sorted(set(plan.values())):
        letter, number, direction = seat
        section = sections.get(letter)
        if section is None:
            section = sections[letter] = Section.objects.create(
                session=session, letter=letter, movement=Section.Movement.UPLOADED
            )
        name = (names.get(label_of[seat]) or "").replace(";", " – ").strip()
        pair = by_name.pop(name, None) if name else None  # popped: one seat per pair in a session
        if pair is None:
            pair = Pair.objects.create(event_id=session.event_id, name=name or f"{letter}{number}")
        created[seat] = SessionPair.objects.create(
            section=section, pair=pair, number=number, direction=direction
        )
    for section in sections.values():
        if section.movement == Section.Movement.UPLOADED:
            section.tables = max(
                len([s for s in created if s[0] == section.letter and s[2] != "EW"]), section.tables
            )
            section.save(update_fields=["tables"])
    return created
