"""Decisions are layers, not overwrites (issue #14).

A decision is a version made by a correction, a director's adjustment (an adjusted or artificial score, a
penalty, a withdrawal) or an appeal decision. Its delta is what it changed against its `base`: the rows it
set (keyed by board + NS + EW), the rows it removed, the penalties it added. The session's results are the
latest upload (or restore) plus every decision still in force, re-applied in order.

Every version still holds the session's complete rows (what the recompute reads); an upload or a restore
re-applies the decisions in force on top of its new rows. A decision whose delta the new rows touch (a row
of the same board and pair with another value, a board penalty of a pair the upload has a result for) is
not decided silently: the upload is refused with `DecisionsPending` until the director says, for each,
keep (re-applied), re-confirm (re-applied, recorded as re-confirmed) or set aside (not applied, with a
mandatory reason). Decisions the upload does not touch are carried. The new version records what it did
with each (`VersionDecision`), so the audit trail says which decisions every version reflects.

Bridge individual events (issue #20) go through the same layers: an `IndividualVersion` is a version, its
rows are keyed by board and the four players (north, south, east, west) instead of the two pairs, a
decision touches the rows of the board where one of its players sits, and `IndividualVersionDecision`
records what each upload did with each decision. Individual events have no penalties.
"""

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from results.models import VersionedUpload

from ..models import (
    CorrectionRequest,
    IndividualResult,
    IndividualVersion,
    IndividualVersionDecision,
    PairSession,
    ResultVersion,
    SessionPair,
    VersionDecision,
)
from . import versions
from .exports import pair_labels

Source = VersionedUpload.Source
Action = VersionDecision.Action
DECISION_SOURCES = (Source.CORRECTION, Source.ADJUSTMENT, Source.APPEAL)
KEEP, RECONFIRM, SET_ASIDE = "keep", "reconfirm", "set_aside"
CHOICES = {KEEP: Action.KEPT, RECONFIRM: Action.RECONFIRMED, SET_ASIDE: Action.SET_ASIDE}
VALUE_FIELDS = ("contract", "declarer", "lead", "tricks", "score", "artificial")
KINDS = {
    "correction": gettext_lazy("correction"),
    "appeal": gettext_lazy("appeal decision"),
    "artificial_score": gettext_lazy("artificial score"),
    "assigned_score": gettext_lazy("adjusted score"),
    "penalty": gettext_lazy("penalty"),
    "withdrawal": gettext_lazy("withdrawal"),
    "exclusion": gettext_lazy("exclusion (VSz 23)"),
    "fouled_board": gettext_lazy("fouled board (VSz 27)"),
    "adjustment": gettext_lazy("director's decision"),
}


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


PAIR_SEATS = ("ns_id", "ew_id")
INDIVIDUAL_SEATS = ("north", "south", "east", "west")
INDIVIDUAL_ROW_FIELDS = (
    ("board", "table") + INDIVIDUAL_SEATS + ("contract", "declarer", "lead") + VALUE_FIELDS[3:]
)


def _seats(row: dict) -> tuple[str, ...]:
    """Who a row is of: its two pairs (pair events) or its four players (individual events)."""
    return PAIR_SEATS if "ns_id" in row else INDIVIDUAL_SEATS


def _who(row: dict) -> tuple:
    return tuple(row[seat] for seat in _seats(row))


def _key(row: dict) -> tuple:
    return (row["board"],) + _who(row)


def rows_of(version) -> list[dict]:
    """A version's complete rows, of a pair session or of an individual event."""
    if isinstance(version, IndividualVersion):
        return list(
            IndividualResult.objects.filter(version=version)
            .order_by("board", "table", "pk")
            .values(*INDIVIDUAL_ROW_FIELDS)
        )
    return versions.rows_of(version)


def _penalties_of(version) -> list[dict]:
    return [] if isinstance(version, IndividualVersion) else versions.penalties_of(version)


def _record_model(version):
    return IndividualVersionDecision if isinstance(version, IndividualVersion) else VersionDecision


def _values(row: dict) -> tuple:
    return tuple(row.get(f) for f in VALUE_FIELDS)


def _penalty_key(penalty: dict) -> tuple:
    return (penalty["pair_id"], penalty["board"], penalty["percent"], penalty["reason"] or "")


def _without(penalties: list[dict], removed: list[dict]) -> list[dict]:
    """`penalties` less one occurrence of each of `removed`."""
    left = [_penalty_key(p) for p in removed]
    out = []
    for penalty in penalties:
        k = _penalty_key(penalty)
        if k in left:
            left.remove(k)
        else:
            out.append(penalty)
    return out


@dataclass
class Delta:
    rows: list[dict]  # the complete rows the decision set
    removed: list[tuple]  # keys of rows it removed
    penalties: list[dict]  # penalties it added
    # VSz 27: the deal group it gave a row whose result it left as it was (a fouled board marked)
    groups: dict[tuple, int | None] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (self.rows or self.removed or self.penalties or self.groups)


def delta_of(decision: ResultVersion) -> Delta:
    before = {_key(r): r for r in rows_of(decision.base)}
    after = {_key(r): r for r in rows_of(decision)}
    rows = [r for k, r in after.items() if k not in before or _values(before[k]) != _values(r)]
    removed = [k for k in before if k not in after]
    penalties = _without(_penalties_of(decision), _penalties_of(decision.base))
    groups = {
        k: r.get("deal_group")
        for k, r in after.items()
        if k in before
        and _values(before[k]) == _values(r)
        and before[k].get("deal_group") != r.get("deal_group")
    }
    return Delta(rows, removed, penalties, groups)


def in_force(version: ResultVersion | IndividualVersion | None) -> list:
    """The decisions `version` reflects, oldest first: the decision versions since the last upload or
    restore, and the decisions that upload carried, kept or re-confirmed."""
    chain = []
    while version is not None and version.source in DECISION_SOURCES:
        chain.append(version)
        version = type(version).objects.select_related("uploaded_by").filter(pk=version.base_id).first()
    carried = []
    if version is not None:
        carried = [
            record.decision
            for record in _record_model(version)
            .objects.filter(version=version)
            .exclude(action=Action.SET_ASIDE)
            .select_related("decision__uploaded_by")
        ]
    return sorted(carried + chain, key=lambda v: v.number)


def kind_of(decision: ResultVersion, delta: Delta) -> str:
    if decision.source == Source.CORRECTION:
        return "correction"
    if decision.source == Source.APPEAL:
        return "appeal"
    if delta.groups and not delta.rows:
        return "fouled_board"
    if delta.empty:
        if isinstance(decision, IndividualVersion):
            return "adjustment"
        return "exclusion" if decision.exclusions.exists() else "withdrawal"
    if any(r["artificial"] for r in delta.rows):
        return "artificial_score"
    if delta.rows:
        return "assigned_score"
    if delta.penalties:
        return "penalty"
    return "adjustment"


def label_of(decision: ResultVersion, kind: str) -> str:
    if kind == "correction" and isinstance(decision, ResultVersion):
        request = CorrectionRequest.objects.filter(version=decision).first()
        if request is not None:
            return _("correction #%(id)s") % {"id": request.pk}
    return _("%(kind)s (version %(number)s)") % {"kind": KINDS[kind], "number": decision.number}


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


def restore(
    session: PairSession,
    number: int,
    *,
    user,
    note: str = "",
    resolutions: dict | None = None,
    reasons: dict | None = None,
    expected_base: int | None = None,
    dry_run: bool = False,
) -> ResultVersion:
    """A new version with the rows and penalties of version `number` (source "restore"); the decisions in
    force now that it did not reflect go through the same check as an upload's."""
    with transaction.atomic():
        versions.lock_event(session.event_id)
        target = ResultVersion.objects.filter(session=session, number=number).first()
        if target is None:
            raise ResolutionError([_("There is no version %(number)s.") % {"number": number}])
        base = versions.latest_version(session)
        if base == target:
            raise ResolutionError([_("Version %(number)s is the current one.") % {"number": number}])
        rows = versions.rows_of(target)
        settled = settle(
            base,
            rows,
            versions.penalties_of(target),
            fresh=rows,
            restore_of=target,
            resolutions=resolutions,
            reasons=reasons,
            expected_base=expected_base,
            dry_run=dry_run,
        )
        version = versions.write_version(
            session,
            settled.rows,
            settled.penalties,
            source=Source.RESTORE,
            user=user,
            note=(note or _("restore of version %(number)s") % {"number": number}),
            deals=target.deals,
            base=base,
        )
        record(version, settled)
    return version


# --- what the director and the API see ------------------------------------------------------------------


def _result_text(row: dict | None) -> str:
    if row is None:
        return "—"
    if row.get("deal_group") is not None:
        plain = _result_text({**row, "deal_group": None})
        return _("%(result)s, deal %(group)s") % {"result": plain, "group": row["deal_group"]}
    if row.get("artificial"):
        return row["artificial"]
    parts = [row.get("contract") or "", row.get("declarer") or ""]
    if row.get("tricks") is not None:
        parts.append(str(row["tricks"]))
    if row.get("score") is not None:
        parts.append(f"{row['score']:+d}")
    return " ".join(p for p in parts if p) or "—"


def _value(row: dict | None) -> dict | None:
    if row is None:
        return None
    return {f: row.get(f) for f in ("contract", "declarer", "tricks", "score", "artificial")}


def _individual_sides(event_id: int):
    """side(players) -> {"number": "3-7", "name": "A / B"} of an individual event's two players."""
    from ..models import IndividualPlayer

    names = {p.number: p.display_name for p in IndividualPlayer.objects.filter(event_id=event_id)}

    def side(*numbers):
        return {
            "id": None,
            "number": "–".join(str(n) for n in numbers),
            "name": " / ".join(str(names.get(n, n)) for n in numbers),
        }

    return side


def describe(session, affected: list[Affected]) -> list[dict]:
    """The affected decisions as plain data: for the confirmation page and the API's 409 answer.
    `session`: the PairSession, or the IndividualEvent of an individual event's decisions."""
    individual = not isinstance(session, PairSession)
    seats = (
        {}
        if individual
        else {
            s.pk: s
            for s in SessionPair.objects.filter(section__session=session).select_related(
                "section", "pair__player1", "pair__player2"
            )
        }
    )
    labels = {} if individual else pair_labels(session)
    side = _individual_sides(session.event_id) if individual else None

    def pair(pair_id):
        if pair_id is None:
            return None
        seat = seats.get(pair_id)
        return {
            "id": pair_id,
            "number": labels.get(pair_id, ""),
            "name": seat.pair.display_name if seat else "",
        }

    out = []
    for item in affected:
        d = item.decision
        kind = kind_of(d, item.delta)
        conflicts = []
        for c in item.conflicts:
            if c.grouping:
                conflicts.append(
                    {
                        "board": c.board,
                        "ns": None,
                        "ew": None,
                        "upload": _value(c.upload),
                        "decision": {"deal_groups": True},
                        "upload_text": _("the board's tables changed"),
                        "decision_text": _("deal groups of a fouled board"),
                    }
                )
                continue
            if c.penalty:
                text = f"−{c.decision['percent']}%"
                conflicts.append(
                    {
                        "board": c.board,
                        "ns": pair(c.ns_id),
                        "ew": None,
                        "upload": _value(c.upload),
                        "decision": {"penalty_percent": str(c.decision["percent"])},
                        "upload_text": _("%(result)s, no penalty") % {"result": _result_text(c.upload)},
                        "decision_text": text,
                    }
                )
                continue
            if c.players:  # an individual event's row: N-S and E-W by the players' numbers
                north, south, east, west = c.players
                ns, ew = side(north, south), side(east, west)
            else:
                ns, ew = pair(c.ns_id), pair(c.ew_id)
            conflicts.append(
                {
                    "board": c.board,
                    "ns": ns,
                    "ew": ew,
                    "upload": _value(c.upload),
                    "decision": _value(c.decision),
                    "upload_text": _result_text(c.upload),
                    "decision_text": _result_text(c.decision),
                }
            )
        out.append(
            {
                "id": d.pk,
                "version": d.number,
                "kind": kind,
                "kind_display": str(KINDS[kind]),
                "label": label_of(d, kind),
                "by": d.uploaded_by.get_full_name() or d.uploaded_by.email or d.uploaded_by.username,
                "at": d.uploaded_at,
                "reason": d.note,
                "conflicts": conflicts,
            }
        )
    return out


def summary(version: ResultVersion | None) -> list[dict]:
    """What `version` reflects: each decision in force with its label and the boards it touched."""
    out = []
    for decision in in_force(version):
        delta = delta_of(decision)
        kind = kind_of(decision, delta)
        boards = sorted(
            {r["board"] for r in delta.rows}
            | {p["board"] for p in delta.penalties if p["board"]}
            | {key[0] for key in delta.groups}
        )
        out.append({"decision": decision, "kind": kind, "label": label_of(decision, kind), "boards": boards})
    return out


@dataclass
class Diff:
    added: list[dict]
    removed: list[dict]
    changed: list[tuple[dict, dict]]  # (before, after)
    penalties_added: list[dict]
    penalties_removed: list[dict]

    @property
    def empty(self) -> bool:
        return not (
            self.added or self.removed or self.changed or self.penalties_added or self.penalties_removed
        )


def diff(before: ResultVersion | None, after: ResultVersion) -> Diff:
    """`after` against `before` by board and table (board + NS + EW); penalties added and removed. Rows and
    penalties carry `result` (the text shown) and `ns` / `ew` / `pair` labels."""
    labels = pair_labels(after.session)
    old = {_key(r): r for r in versions.rows_of(before)}
    new = {_key(r): r for r in versions.rows_of(after)}

    def shown(row):
        return {
            **row,
            "ns": labels.get(row["ns_id"], ""),
            "ew": labels.get(row["ew_id"], ""),
            "result": _result_text(row),
        }

    def shown_penalty(p):
        return {**p, "pair": labels.get(p["pair_id"], "")}

    old_penalties, new_penalties = versions.penalties_of(before), versions.penalties_of(after)
    return Diff(
        added=[shown(r) for k, r in sorted(new.items()) if k not in old],
        removed=[shown(r) for k, r in sorted(old.items()) if k not in new],
        changed=[
            (shown(old[k]), shown(r))
            for k, r in sorted(new.items())
            if k in old and (_values(old[k]) != _values(r) or old[k].get("deal_group") != r.get("deal_group"))
        ],
        penalties_added=[shown_penalty(p) for p in _without(new_penalties, old_penalties)],
        penalties_removed=[shown_penalty(p) for p in _without(old_penalties, new_penalties)],
    )
