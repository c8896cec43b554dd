"""What every part of the recompute shares: the rows it reads (seats, versions, sessions), the absent side of
a withdrawal and the engine's refusal."""

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from django.db import connection

from bridge.engine.scoring.adjusted import ArtificialScore, Award
from bridge.engine.scoring.incremental import LiveSession
from results.bulk import read_all as _read_all  # noqa: F401 (the recompute's reads, shared with teams and ulti)
from results.bulk import read_shaped as _read_shaped  # noqa: F401

if TYPE_CHECKING:
    from .standings import _People

from ...models import (
    PairSession,
)

ABSENT = "absent-"
ABSENT_AWARD = ArtificialScore(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS)

# A result row is a tuple in versions.ROW_FIELDS order (read with values_list): these are its positions.
BOARD, TABLE, NS, EW, SCORE, ARTIFICIAL, GROUP = 0, 1, 2, 3, 8, 9, 10


class ScoringError(Exception):
    """The engine refused a session's results (a bug or a data problem a director must see)."""


class _Seat(NamedTuple):
    """A session pair as the recompute needs it (read with values_list, no model instance per pair)."""

    section_id: int
    pair_id: int
    number: int
    session_id: int


class _Version(NamedTuple):
    """The fields of a session's latest ResultVersion the recompute reads (never its uploaded text)."""

    pk: int
    session_id: int
    number: int
    source: str
    uploaded_at: object
    deals: dict


@dataclass
class _Session:
    session: PairSession
    version: _Version
    rows: list[tuple]  # versions.ROW_FIELDS order
    penalties: list[tuple]  # versions.PENALTY_FIELDS order
    plans: dict[int, object]  # section id -> engine Movement (None: movement from the upload)
    scheduled: dict[int, int] = field(default_factory=dict)  # session pair id -> boards its movement gives it
    played: dict[int, set[int]] = field(default_factory=dict)  # session pair id -> boards it has results on
    # the full recompute's engine input (entries by board, penalties, exclusions) and source rows, as scored
    scored: tuple | None = None
    sources: dict | None = None


# The worker's incremental engine states (compute.boards), filled by the one-board rescores and seeded by the
# full recompute (compute.event) with what it scored.
_LIVE: "OrderedDict[int, _Live]" = OrderedDict()  # session id -> its engine state, most recent last
_LIVE_SESSIONS = 64  # sessions a worker keeps scored in memory


@dataclass
class _Live:
    """A session's incremental engine state for one (immutable) version, and the source row of each entry."""

    version_id: int
    options: tuple
    engine: LiveSession | None  # None: built from `pending` when first needed
    sources: dict[int, list[tuple]]
    event: "_EventReads | None" = None
    out: dict | None = None  # the VSz 23 exclusions the engine's entries reflect (_EventReads.out)
    # (entries by board, penalties) as the full recompute gave them to `score_session`: the engine's state
    # is built from them by the next one-board rescore, without reading the session again
    pending: tuple | None = None


@dataclass
class _EventReads:
    """What a one-board rescore reads of the rest of the event, kept with the session's engine state while
    nothing else happens to the event: valid while the event's stamp is the one this state wrote (any
    other upload, substitute, withdrawal or recompute moves the stamp first)."""

    computed_version: int
    sessions: dict[int, PairSession]
    others: list[tuple]  # the other sessions' SessionStanding rows
    seats: dict[int, _Seat]
    people: "_People"  # standings._People
    # pair id -> the session's / the event's standings row as stored (without its stamp), once this state
    # wrote them: the next rescore writes only the rows that differ (None: not known, all are written)
    session_rows: dict | None = None
    event_rows: dict | None = None
    # VSz 23: the session's excluded session pairs -> boards whose results leave the standings (None: all),
    # and the session as `_engine_input` needs it to seat their opponents' absent sides (its plans)
    out: dict | None = None
    item: "_Session | None" = None


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _places(place: str) -> tuple[int, int]:
    first, _sep, last = place.partition("-")
    return int(first), int(last or first)
