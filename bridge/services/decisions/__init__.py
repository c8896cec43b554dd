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

The package's parts: `layers` (the layers' index: each decision's delta, what is in force, kinds and
labels), `reapply` (`settle`: the decisions in force re-applied on new rows, the director's answers,
`record`), `history` (`restore`, and `diff` for the history pages) and `display` (`describe`, `summary`:
what the director and the API see). This module is the package's front door: it re-exports their public
names, and the rest of the project reaches them as `decisions.<name>` (`decisions.settle`,
`decisions.DecisionsPending`), never through the parts; patch a name where its part looks it up.
"""

from .display import describe, summary
from .history import Diff, diff, restore
from .layers import (
    DECISION_SOURCES,
    INDIVIDUAL_ROW_FIELDS,
    INDIVIDUAL_SEATS,
    KINDS,
    PAIR_SEATS,
    VALUE_FIELDS,
    Action,
    Delta,
    Source,
    delta_of,
    in_force,
    kind_of,
    label_of,
    rows_of,
)
from .reapply import (
    CHOICES,
    KEEP,
    RECONFIRM,
    SET_ASIDE,
    Affected,
    Conflict,
    DecisionsPending,
    ResolutionError,
    Settled,
    record,
    settle,
)

__all__ = [
    "CHOICES",
    "DECISION_SOURCES",
    "INDIVIDUAL_ROW_FIELDS",
    "INDIVIDUAL_SEATS",
    "KEEP",
    "KINDS",
    "PAIR_SEATS",
    "RECONFIRM",
    "SET_ASIDE",
    "VALUE_FIELDS",
    "Action",
    "Affected",
    "Conflict",
    "DecisionsPending",
    "Delta",
    "Diff",
    "ResolutionError",
    "Settled",
    "Source",
    "delta_of",
    "describe",
    "diff",
    "in_force",
    "kind_of",
    "label_of",
    "record",
    "restore",
    "rows_of",
    "settle",
    "summary",
]
