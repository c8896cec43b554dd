"""What every part of the recompute shares: the rows it reads (seats, versions, sessions), the absent side of
a withdrawal and the engine's refusal."""

from dataclasses import dataclass, field
from typing import NamedTuple

from django.db import connection

from bridge.engine.scoring.adjusted import ArtificialScore, Award
from results.bulk import read_all as _read_all  # noqa: F401 (the recompute's reads, shared with teams and ulti)

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


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _places(place: str) -> tuple[int, int]:
    first, _sep, last = place.partition("-")
    return int(first), int(last or first)
