"""Writing a new result version: the one path every change of a session's results goes through.

Callers hold no lock of their own: `write_version` locks the event's recompute row first, so versions of
one event are numbered one at a time across every web and worker process (never a process-local lock).
"""

import hashlib
import json
from collections import Counter, defaultdict
from operator import itemgetter

from django.db import connection, connections, transaction
from django.db.models import BooleanField, Q, Subquery
from django.db.models.expressions import RawSQL

from results.bulk import read_all
from results.services import lock_state, mark_uploaded, next_version_number
from results.tasks import request_recompute

from ..models import BoardResult, PairSession, ResultPenalty, ResultVersion, SessionStart
from . import BOARDS, SCOPE, bulk, dealing

ROW_FIELDS = (
    "board",
    "table",
    "ns_id",
    "ew_id",
    "contract",
    "declarer",
    "lead",
    "tricks",
    "score",
    "artificial",
    "deal_group",
)
PENALTY_FIELDS = ("pair_id", "board", "percent", "reason")
# What a version copies of a penalty: also its catalogue offence (the recompute reads PENALTY_FIELDS).
PENALTY_STORED_FIELDS = PENALTY_FIELDS + ("code",)
_TEXT_FIELDS = ("contract", "declarer", "lead", "artificial")
_VALUES = itemgetter(*ROW_FIELDS)  # a complete row's values in ROW_FIELDS order, at C speed
_TEXT_AT = tuple(index for index, name in enumerate(ROW_FIELDS) if name in _TEXT_FIELDS)


def row_values(row: dict) -> tuple:
    """A row's values in ROW_FIELDS order, a missing field None and a text field never None: what a version
    stores of it. Rows read from a version or built by an upload have every field (one C call each);
    others (a decision's, a test's) are completed here."""
    try:
        values = _VALUES(row)
    except KeyError:
        values = tuple(map(row.get, ROW_FIELDS))
    for index in _TEXT_AT:
        if values[index] is None:
            return tuple("" if v is None and i in _TEXT_AT else v for i, v in enumerate(values))
    return values


def clean_row(row: dict) -> dict:
    """A row with every field, text fields never None."""
    out = {field: row.get(field) for field in ROW_FIELDS}
    for field in _TEXT_FIELDS:
        out[field] = out[field] or ""
    return out


def latest_version(session: PairSession) -> ResultVersion | None:
    return ResultVersion.objects.filter(session=session).order_by("-number").first()


def sources_of(sources: dict | str | None) -> dict[int, int]:
    """A version's `sources` (JSON: text keys) as board -> the pk of the version holding its rows. Also
    the JSON text: read through a subquery or a relation, SQLite gives the field undecoded."""
    if isinstance(sources, str):
        sources = json.loads(sources)
    return {int(board): int(holder) for board, holder in (sources or {}).items()}


def holding(version_id: int, sources: dict | str | None, boards=None) -> Q:
    """The filter of a version's rows (copy on write, `ResultVersion.sources`): those it stores, and for each
    board it kept, its holder's rows of that board; with `boards` only those boards'. The one way to read
    a version's BoardResult rows.

    Written as SQL, one `version = h AND board IN (...)` per holder: a live session's version keeps each
    of a hundred boards from another table's version, and the ORM took ~20 ms to build that filter."""
    kept: dict[int, list[int]] = defaultdict(list)
    wanted = None if boards is None else {int(board) for board in boards}
    for board, holder in sources_of(sources).items():
        if wanted is None or board in wanted:
            kept[holder].append(board)
    quote = connection.ops.quote_name
    table = quote(BoardResult._meta.db_table)
    version, board = f"{table}.{quote('version_id')}", f"{table}.{quote('board')}"
    parts, params = [], []

    def add(holder: int, held) -> None:
        if held is None:
            parts.append(f"{version} = %s")
            params.append(holder)
        elif held:
            parts.append(f"({version} = %s AND {board} IN ({', '.join(['%s'] * len(held))}))")
            params.extend([holder, *sorted(held)])

    add(int(version_id), wanted)
    for holder, held in sorted(kept.items()):
        add(holder, held)
    if not parts:
        return Q(pk__in=[])
    return Q(RawSQL(f"({' OR '.join(parts)})", params, output_field=BooleanField()))


def results_of(version: ResultVersion | None, boards=None):
    """The version's BoardResult rows (a queryset), its own and those it kept; with `boards` only theirs."""
    if version is None:
        return BoardResult.objects.none()
    # in the version's order, whichever versions hold the rows (a model's default would sort by holder)
    return BoardResult.objects.filter(holding(version.pk, version.sources, boards)).order_by(
        "board", "table", "pk"
    )


def rows_of(version: ResultVersion | None, boards=None) -> list[dict]:
    if version is None:
        return []
    return list(results_of(version, boards).values(*ROW_FIELDS))


# What an upload reads of the version before: every field but the uploaded text (a whole file, never used)
_BASE_FIELDS = tuple(f.attname for f in ResultVersion._meta.concrete_fields if f.name != "raw")


def read_latest(session: PairSession, *more) -> tuple:
    """(the latest version or None, `rows_of` it, `penalties_of` it, the rows of each of `more`, values_list
    querysets read alongside) in two round trips on PostgreSQL: an upload's reads of the version before
    (the version with its penalties and `more`, then its rows, which its `sources` say where to find).
    The version's uploaded text is not read."""
    latest = ResultVersion.objects.filter(session=session).order_by("-number")
    last = Subquery(latest.values("pk")[:1])
    found, penalties, *others = read_all(
        [
            latest.values_list(*_BASE_FIELDS)[:1],
            ResultPenalty.objects.filter(version_id=last).order_by("pk").values_list(*PENALTY_STORED_FIELDS),
            *more,
        ]
    )
    if not found:
        return (None, [], [], *others)
    base = ResultVersion.from_db(connections[latest.db].alias, list(_BASE_FIELDS), found[0])
    (rows,) = read_all([results_of(base).values_list(*ROW_FIELDS)])
    return (
        base,
        [dict(zip(ROW_FIELDS, row, strict=True)) for row in rows],
        [dict(zip(PENALTY_STORED_FIELDS, row, strict=True)) for row in penalties],
        *others,
    )


def penalties_of(version: ResultVersion | None) -> list[dict]:
    if version is None:
        return []
    return list(ResultPenalty.objects.filter(version=version).order_by("pk").values(*PENALTY_STORED_FIELDS))


def lock_event(event_id: int) -> None:
    """Serialise writers of one event's results (call inside transaction.atomic)."""
    lock_state(event_id, SCOPE)


def lock_event_for_version(event_id: int) -> int:
    """Lock the event as `lock_event` does, by counting its new version at once (one UPDATE, the lock
    taken once): for a writer that goes on to `write_version(..., event_version=)` it returns. A refusal
    raised later in the transaction rolls the count back with the rest."""
    return mark_uploaded(event_id, SCOPE)


def write_version(
    session: PairSession,
    rows: list[dict],
    penalties: list[dict],
    *,
    source: str,
    user,
    note: str = "",
    file_name: str = "",
    raw: str = "",
    deals: dict | None = None,
    base: ResultVersion | None = None,
    event_version: int | None = None,
    changed_boards: set[int] | None = None,
    base_is_latest: bool = False,
    base_rows: list[dict] | None = None,
) -> ResultVersion:
    """Append a version holding `rows` and `penalties` (dicts of ROW_FIELDS / PENALTY_FIELDS) and queue
    the recompute for after the commit. The caller has already locked the event with `lock_event`, or
    with `lock_event_for_version`, whose event version it passes as `event_version`. `changed_boards`: the
    only boards whose rows differ from `base`'s (a traveller), rescored alone (`queue_recompute`).
    `base_is_latest`: the caller read `base` with `latest_version` under the event's lock, so the new number
    is the one after it (not asked of the database again).
    `base_rows`: `rows_of(base)`, when the caller has read them: the version then stores only the boards
    whose rows differ from them and keeps the others by reference (copy on write: a table's result is one
    board's rows, not the whole session again); `changed_boards`, when given, gains those boards."""
    assert transaction.get_connection().in_atomic_block, "write_version needs the caller's transaction"
    sources: dict[str, int] = {}
    if base is not None and base_rows is not None:
        differ = differing_boards(base_rows, rows)
        if changed_boards is not None:  # a board told changed is stored too: its rescore reads it here
            differ |= set(changed_boards)
            changed_boards = differ
        held = sources_of(base.sources)
        kept = {row["board"] for row in rows} - differ
        sources = {str(board): held.get(board, base.pk) for board in sorted(kept)}
        if kept:
            rows = [row for row in rows if row["board"] in differ]
    if event_version is None:
        event_version = mark_uploaded(session.event_id, SCOPE)
    if base_is_latest:
        number = base.number + 1 if base is not None else 1
    else:
        number = next_version_number(ResultVersion, session=session)
    version = ResultVersion.objects.create(
        session=session,
        number=number,
        source=source,
        uploaded_by=user,
        note=note[:500],
        file_name=file_name[:200],
        sha256=hashlib.sha256(raw.encode()).hexdigest() if raw else "",
        raw=raw,
        deals={str(board): deal for board, deal in (deals or {}).items()},
        base=base,
        event_version=event_version,
        sources=sources,
    )
    pk = version.pk
    bulk.insert_rows(BoardResult, ("version",) + ROW_FIELDS, ((pk, *row_values(row)) for row in rows))
    ResultPenalty.objects.bulk_create(
        [
            ResultPenalty(
                version=version,
                **{f: p.get(f) or ("" if f in ("reason", "code") else None) for f in PENALTY_STORED_FIELDS},
            )
            for p in penalties
        ]
    )
    # Results mean the session was played: its start is recorded (once), which opens its deals (issue #15).
    dealing.record_start(session, SessionStart.Source.RESULTS, user=user, now=version.uploaded_at)
    if changed_boards is not None and base is not None:
        queue_recompute(session.event_id, session.pk, changed_boards)
    else:
        queue_recompute(session.event_id)
    return version


def queue_recompute(event_id: int, session_id: int | None = None, boards: set[int] | None = None) -> None:
    """The event's recompute, published once after the commit (bridge.apps registers the tasks): the full
    one, or with `boards` the partial one of those boards of the session, which falls back to the full one
    whenever the stored rows are not those of the version before (the sweeper re-runs the full one)."""
    if boards is None:
        request_recompute(SCOPE, event_id)
    else:
        request_recompute(SCOPE, event_id, session_id, sorted(boards), partial=BOARDS)


def differing_boards(base_rows: list[dict], rows: list[dict]) -> set[int]:
    """The boards whose rows (dicts of ROW_FIELDS, as a version stores them: `row_values`) differ between
    the version before and the new one. The same rows in another order are the same board (a file need
    not list a board's tables in the order they are stored); a board told changed that is not costs a
    rescore of it and a copy of its rows, never a wrong standing."""

    def by_board(items):
        out: dict[int, list] = {}
        for row in items:
            values = row_values(row)
            board = out.get(values[0])
            if board is None:
                out[values[0]] = [values]
            else:
                board.append(values)
        return out

    before, after = by_board(base_rows), by_board(rows)
    differ = set()
    for board in before.keys() | after.keys():
        old, new = before.get(board), after.get(board)
        if old != new and (old is None or new is None or Counter(old) != Counter(new)):
            differ.add(board)
    return differ


def mark_changed(event_id: int) -> int:
    """A change outside the result rows (a substitute recorded): a new event version and a recompute."""
    version = mark_uploaded(event_id, SCOPE)
    queue_recompute(event_id)
    return version
