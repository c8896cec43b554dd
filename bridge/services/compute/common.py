"""What every part of the recompute shares: the rows it reads (seats, versions, sessions), the absent side of
a withdrawal and the engine's refusal."""

from dataclasses import dataclass, field
from typing import NamedTuple

from django.core.exceptions import EmptyResultSet
from django.db import connection

from bridge.engine.scoring.adjusted import ArtificialScore, Award

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


def _read_all(querysets) -> list[list[tuple]]:
    """The rows of several values_list querysets (tuples, through the fields' converters as the ORM reads
    them); on PostgreSQL in one round trip (their SQL joined, each result set read in turn), elsewhere one
    query each. A queryset that can match nothing (`board__in=[]`) is not sent."""
    if connection.vendor != "postgresql":
        return [list(queryset) for queryset in querysets]
    compilers, statements = [], []
    for queryset in querysets:
        compiler = queryset.query.get_compiler(using=queryset.db)
        try:
            statements.append(compiler.as_sql())
        except EmptyResultSet:
            statements.append(None)
        compilers.append(compiler)
    sent = [statement for statement in statements if statement is not None]
    out = []
    with connection.cursor() as cursor:
        if sent:
            cursor.execute("; ".join(sql for sql, _p in sent), [p for _sql, ps in sent for p in ps])
        raw, first = cursor.cursor, True
        for compiler, statement in zip(compilers, statements, strict=True):
            if statement is None:
                out.append([])
                continue
            if not first:
                raw.nextset()
            first = False
            rows = raw.fetchall()
            out.append([tuple(row) for row in compiler.results_iter(results=[rows], tuple_expected=True)])
    return out


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _places(place: str) -> tuple[int, int]:
    first, _sep, last = place.partition("-")
    return int(first), int(last or first)
