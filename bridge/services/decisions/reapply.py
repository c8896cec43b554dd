"""Re-applying the decisions in force on an upload's or a restore's new rows (`settle`): which of them the
new rows touch (`Conflict`, `Affected`), the director's answer for each (keep, re-confirm, set aside) and
`DecisionsPending` / `ResolutionError` until it is given; `record` writes what the new version did with each.
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ...models import IndividualVersion, ResultVersion
from .layers import (
    DECISION_SOURCES,
    Action,
    Delta,
    _key,
    _record_model,
    _seats,
    _values,
    _who,
    _without,
    delta_of,
    in_force,
    kind_of,
    label_of,
    rows_of,
)

KEEP, RECONFIRM, SET_ASIDE = "keep", "reconfirm", "set_aside"
CHOICES = {KEEP: Action.KEPT, RECONFIRM: Action.RECONFIRMED, SET_ASIDE: Action.SET_ASIDE}


class ResolutionError(Exception):
    """The director's answer cannot be used (an unknown decision, a set-aside without a reason)."""

    def __init__(self, messages):
        self.messages = [str(m) for m in messages]
        super().__init__("; ".join(self.messages))


class DecisionsPending(Exception):
    """The new rows touch decisions in force: nothing is written until the director resolves each.

    `warnings` (set by `uploads.submit`): what a lenient read of the file took on trust, for the director
    to accept first."""

    warnings: tuple | list = ()

    def __init__(self, affected: list["Affected"], base: ResultVersion | None, changed: bool = False):
        self.affected, self.base, self.changed = affected, base, changed
        super().__init__(", ".join(str(a.decision.pk) for a in affected))


@dataclass
class Conflict:
    """One row or penalty of a decision the new rows touch: what the upload says, what the decision said."""

    board: int
    ns_id: int | None
    ew_id: int | None
    upload: dict | None  # the upload's row
    decision: dict  # the decision's row, or its penalty ({"pair_id", "percent", ...})
    penalty: bool = False
    grouping: bool = False  # the board's tables are no longer those the deal groups were given to
    players: tuple = ()  # an individual event's row: the decision's four players (N, S, E, W)


@dataclass
class Affected:
    decision: ResultVersion
    delta: Delta
    conflicts: list[Conflict] = field(default_factory=list)


def _by_pair(rows: list[dict]) -> dict[tuple[int, int], list[dict]]:
    """(board, pair or player) -> the rows of it. A session's file makes thousands of rows, all of one kind
    (pairs or four players): the seats are told once, not per row."""
    out: dict[tuple[int, int], list[dict]] = {}
    if not rows:
        return out
    seats = _seats(rows[0])
    for row in rows:
        board = row["board"]
        for seat in seats:
            key = (board, row[seat])
            found = out.get(key)
            if found is None:
                out[key] = [row]
            else:
                found.append(row)
    return out


class _Index:
    """`_by_pair` of some rows, worked out on first use and once: an upload with no decision in force (the
    usual) never needs it, and one with several decisions needs it once, not once per decision."""

    def __init__(self, rows):
        self._rows, self._by_pair = rows, None

    @property
    def rows(self) -> list[dict]:
        if callable(self._rows):
            self._rows = self._rows()
        return self._rows

    @property
    def by_pair(self) -> dict[tuple[int, int], list[dict]]:
        if self._by_pair is None:
            self._by_pair = _by_pair(self.rows)
        return self._by_pair


def _conflicts(delta: Delta, fresh: "_Index", current: "_Index") -> list[Conflict]:
    """What of the decision the new rows (`fresh`) contradict. A row: the new rows have that board and pair
    with another result. A board penalty (files carry none the upload uses): the new rows change the result
    the penalised pair has on that board now (`current`: the rows of the version before)."""
    if delta.empty:
        return []
    by_pair = fresh.by_pair
    out = []
    for row in delta.rows:
        touching = []
        for who in _who(row):
            touching += [t for t in by_pair.get((row["board"], who), []) if not any(t is o for o in touching)]
        if not touching:
            continue
        same = [t for t in touching if _key(t) == _key(row)]
        if same and len(touching) == 1 and _values(same[0]) == _values(row):
            continue  # the upload already says what the decision said
        individual = "ns_id" not in row
        out.append(
            Conflict(
                row["board"],
                None if individual else row["ns_id"],
                None if individual else row["ew_id"],
                (same or touching)[0],
                row,
                players=_who(row) if individual else (),
            )
        )
    for penalty in delta.penalties:
        where = (penalty["board"], penalty["pair_id"])
        if penalty["board"] is None or where not in by_pair:
            continue
        now = sorted(_key(r) + _values(r) for r in current.by_pair.get(where, []))
        if sorted(_key(r) + _values(r) for r in by_pair[where]) != now:
            out.append(
                Conflict(penalty["board"], penalty["pair_id"], None, by_pair[where][0], penalty, penalty=True)
            )
    # Deal groups (VSz 27) follow the tables: carried while the board has the same tables, asked otherwise.
    grouped: dict[int, set[tuple]] = {}
    for key in delta.groups:
        grouped.setdefault(key[0], set()).add(key)
    for board, keys in sorted(grouped.items()):
        on_board = [r for r in fresh.rows if r["board"] == board]
        if on_board and {_key(r) for r in on_board} != keys:
            out.append(Conflict(board, None, None, on_board[0], {"board": board}, grouping=True))
    return out


def _apply(rows: list[dict], delta: Delta) -> list[dict]:
    for new in delta.rows:
        pairs = set(_who(new))
        dropped = [r for r in rows if r["board"] == new["board"] and set(_who(r)) & pairs]
        table = new["table"]
        if table is None:
            table = next((r["table"] for r in dropped if r["table"] is not None), None)
        rows = [r for r in rows if not any(r is d for d in dropped)]
        rows.append({**new, "table": table})
    removed = set(delta.removed)
    if delta.groups:
        rows = [{**r, "deal_group": delta.groups[_key(r)]} if _key(r) in delta.groups else r for r in rows]
    return [r for r in rows if _key(r) not in removed]


@dataclass
class Settled:
    rows: list[dict]
    penalties: list[dict]
    records: list[tuple[ResultVersion, str, str]]  # (decision, action, reason)


def settle(
    base: ResultVersion | None,
    rows: list[dict],
    penalties: list[dict],
    *,
    fresh: list[dict],
    restore_of: ResultVersion | None = None,
    resolutions: dict | None = None,
    reasons: dict | None = None,
    expected_base: int | None = None,
    dry_run: bool = False,
    base_rows: list[dict] | None = None,
) -> Settled:
    """Re-apply the decisions in force at `base` on the new `rows` (`fresh`: the ones the upload brings).
    `base_rows`: `versions.rows_of(base)` when the caller has read them already (read here otherwise).

    `penalties` are the new version's penalties before the decisions: for an upload, the base's (they
    already hold every decision's penalties, a set-aside one's are taken out); for a restore, the restored
    version's (the decisions it did not reflect add theirs). `resolutions`: decision version id -> keep,
    reconfirm or set_aside; `reasons`: id -> why (required to set aside). `expected_base`: the id of the
    latest version the director saw; another one means the results changed meanwhile (DecisionsPending).
    `dry_run`: only say which decisions are affected (DecisionsPending, possibly with none).
    """
    current = in_force(base)
    already = {d.pk for d in in_force(restore_of)} if restore_of is not None else set()
    if restore_of is not None and restore_of.source in DECISION_SOURCES:
        already.add(restore_of.pk)
    records: list[tuple[ResultVersion, str, str]] = []
    if restore_of is not None:
        records += [(d, Action.CARRIED, "") for d in in_force(restore_of)]
    affected, silent = [], []
    # read and indexed only if a decision needs them (none is in force on most uploads)
    now = _Index((lambda: rows_of(base)) if base_rows is None else base_rows)
    new = _Index(fresh)
    for decision in current:
        if decision.pk in already:
            continue
        delta = delta_of(decision)
        conflicts = _conflicts(delta, new, now)
        (affected if conflicts else silent).append(Affected(decision, delta, conflicts))
    base_id = base.pk if base is not None else None
    if expected_base is not None and expected_base != base_id:
        raise DecisionsPending(affected, base, changed=True)
    if dry_run:
        raise DecisionsPending(affected, base)
    resolutions = {str(k): str(v) for k, v in (resolutions or {}).items()}
    reasons = {str(k): str(v or "").strip() for k, v in (reasons or {}).items()}
    ids = {str(a.decision.pk) for a in affected}
    errors = []
    for key, choice in resolutions.items():
        if key not in ids:
            errors.append(_("decision %(id)s is not one this upload affects") % {"id": key})
        elif choice not in CHOICES:
            errors.append(
                _("decision %(id)s: %(choice)s is not keep, reconfirm or set_aside")
                % {"id": key, "choice": choice}
            )
    if errors:
        raise ResolutionError(errors)
    if ids - set(resolutions):
        raise DecisionsPending(affected, base)
    for item in affected:
        key = str(item.decision.pk)
        if resolutions[key] == SET_ASIDE and not reasons.get(key):
            errors.append(
                _("%(decision)s: give the reason for setting it aside")
                % {"decision": label_of(item.decision, kind_of(item.decision, item.delta))}
            )
    if errors:
        raise ResolutionError(errors)

    applied = sorted(
        silent + [a for a in affected if resolutions[str(a.decision.pk)] != SET_ASIDE],
        key=lambda a: a.decision.number,
    )
    for item in applied:
        rows = _apply(rows, item.delta)
        if restore_of is not None:
            penalties = penalties + item.delta.penalties
    for item in affected:
        key = str(item.decision.pk)
        if resolutions[key] == SET_ASIDE and restore_of is None:
            penalties = _without(penalties, item.delta.penalties)
        records.append((item.decision, CHOICES[resolutions[key]], reasons.get(key, "")[:500]))
    records += [(item.decision, Action.CARRIED, "") for item in silent]
    return Settled(rows, penalties, records)


def record(version: ResultVersion | IndividualVersion, settled: Settled) -> None:
    model = _record_model(version)
    model.objects.bulk_create(
        [
            model(version=version, decision=decision, action=action, reason=reason)
            for decision, action, reason in settled.records
        ]
    )
