"""The decision layers' index: what a decision changed against its base (`Delta`, `delta_of`), which
decisions a version reflects (`in_force`), a decision's kind and label, and the rows' keys (by board and the
two pairs, or an individual event's four players) the other modules of the package compare rows by.
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from results.models import VersionedUpload

from ...models import (
    CorrectionRequest,
    IndividualResult,
    IndividualVersion,
    IndividualVersionDecision,
    ResultVersion,
    VersionDecision,
)
from .. import versions

Source = VersionedUpload.Source
Action = VersionDecision.Action
DECISION_SOURCES = (Source.CORRECTION, Source.ADJUSTMENT, Source.APPEAL)
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
