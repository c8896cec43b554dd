"""Swiss pairing into tables of three (MAUSZ II. 10.; the federation's own program is MaRabU).

Plain objects in, tables out, nothing from the database: the caller loads players and who met whom,
calls :func:`pair_round`, and stores the result. Options are a dict of defaults; an unknown key is an
error, so a typo never silently falls back to a default.

How a round is paired
---------------------
1. Order. Players are ranked by points, then forint, then live rating, then id (the id only makes the
   order total, so the same input always gives the same draw).
2. Byes. When the field is not divisible by three, the lowest-ranked players who have not had a bye sit
   out (II. 10. (2): "a versenyben leghátrébb álló sporttárs(ak) erőnyerő(k) lesz(nek)", at most one bye
   per person per event). Only when everyone has had one does a second bye go to the lowest-ranked of
   those with the fewest, and that is flagged.
3. Round 1 is seeded by rating (III. 8. (3): the first-round draw must use the live ratings). Default
   "slide": the rating list is cut into thirds and table i gets the i-th player of each third, so every
   table has one strong, one middle and one weaker player and the leaders do not knock each other out
   before the field has sorted itself. "neighbours" (1-2-3, 4-5-6) and "snake" are options.
4. Tables are formed top-down from neighbours in that order: the highest unpaired player sits with the
   next two, unless two of the three have met; then the nearest players are pulled up (the pair reaching
   down the fewest places wins, then the higher of the two). Every such departure carries a note.
   When repeats cannot be avoided, a table's repeat count comes before its rank order, so the
   unavoidable repeats sink to the lower tables rather than the leaders'.
5. Guarantee. Nobody meets a player met before in the event if any repeat-free set of tables exists for
   the players not on a bye (the bye follows the rule book first; it is not moved to dodge repeats). Large fields: the top is paired greedily and the bottom window (where the
   greedy step can get stuck, because low scorers have mostly met each other) is solved exactly; if the
   window has no repeat-free solution it is doubled, up to the whole field. The exact solver is a
   depth-first exact cover over triples with most-constrained-player branching and memoised sub-fields;
   when no repeat-free pairing exists it finds the fewest repeated pairs (iterative deepening) and then
   the best rank order among those, and the pairing is flagged. A node budget bounds the time; if it is
   hit, the result is still a full, valid pairing but ``optimal`` is False.

This module holds the public objects, the order, the byes, the seeding and the notes; the search is in
``field.py`` (greedy top, exact bottom window) and ``exact.py`` (the exact cover and its heuristic start).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from federation.engine.notes import Note, Ref, gettext_noop

from .field import FieldSearch

__all__ = [
    "DEFAULT_OPTIONS",
    "Player",
    "Table",
    "Pairing",
    "PairingError",
    "pair_round",
    "ranking_order",
    "rating_order",
    "choose_byes",
    "count_repeats",
]

DEFAULT_OPTIONS: dict[str, object] = {
    # "slide" (one player from each third of the rating list), "snake" or "neighbours".
    "round1_seeding": "slide",
    # False pairs strictly by rank order (useful only to show what the avoidance changed).
    "avoid_repeats": True,
    # Players at the bottom of the field solved exactly after the greedy top; fields this small are
    # solved exactly as a whole.
    "exact_window": 60,
    # Search nodes the exact solver may spend on one pairing before settling for what it has.
    "node_budget": 1_000_000,
    # A person may sit out at most this many rounds per event (MAUSZ II. 10. (2): one).
    "max_byes": 1,
}

_SEEDINGS = ("slide", "snake", "neighbours")


# The notes a pairing carries (federation.engine.notes): their codes, read as English, translated when shown.
BYE = gettext_noop("bye: %(player)s (place %(place)s)")
SECOND_BYE = gettext_noop("%(player)s gets bye number %(number)s: every player has already had %(limit)s")
SEEDED = gettext_noop("round 1 seeded by rating (%(how)s: one player from each third of the list)")
# The seeding's name inside SEEDED, a note of its own so that the page shows it in the reader's language.
SEEDING_NAMES = {
    "slide": gettext_noop("in list order"),
    "snake": gettext_noop("snake order, middle third reversed"),
}
REPEAT = gettext_noop("repeat meeting: %(a)s and %(b)s meet again (%(why)s)")
REPEAT_NTH = gettext_noop("repeat meeting: %(a)s and %(b)s meet for time number %(times)s (%(why)s)")
NO_REPEAT_FREE = gettext_noop("no repeat-free pairing exists")
BUDGET_REPEATS = gettext_noop("none better found within the search budget")
FEWEST_REPEATS = gettext_noop("%(count)s repeat meeting(s): the fewest possible")
BUDGET_RAN_OUT = gettext_noop("%(count)s repeat meeting(s): search budget ran out; fewer may exist")
PULLED_UP = gettext_noop("%(player)s pulled up from place %(place)s %(reason)s")
PULL_FEWEST = gettext_noop("to keep the round's repeat meetings to the fewest (%(count)s)")
PULL_AVOID = gettext_noop("to avoid a repeat meeting (%(a)s and %(b)s have met)")
PULL_BELOW = gettext_noop("so that the tables below can avoid repeat meetings")


class PairingError(ValueError):
    """Input that cannot be paired."""


@dataclass(frozen=True)
class Player:
    id: str
    points: float = 0
    forint: int = 0
    rating: float = 0
    byes: int = 0  # byes already had in this event


@dataclass(frozen=True)
class Table:
    number: int
    players: tuple[str, str, str]
    places: tuple[int, int, int]  # the players' places in the standings (round 1: rating list), 1 = top
    repeats: tuple[tuple[str, str], ...] = ()  # pairs at this table who have met before
    notes: tuple[Note, ...] = ()


@dataclass(frozen=True)
class Pairing:
    round: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    repeats: int  # pairs seated together again
    optimal: bool  # False only if the search budget ran out before the repeat count was proven minimal
    notes: tuple[Note, ...] = ()

    def as_dict(self) -> dict:
        return {"tables": [list(t.players) for t in self.tables], "byes": list(self.byes)}


# ---------------------------------------------------------------------------------------------------
# Public helpers


def _options(options: dict | None) -> dict:
    opts = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise ValueError(f"unknown pairing option {key!r}; known: {', '.join(sorted(DEFAULT_OPTIONS))}")
        opts[key] = value
    if opts["round1_seeding"] not in _SEEDINGS:
        raise ValueError(
            f"round1_seeding must be one of {', '.join(_SEEDINGS)}, got {opts['round1_seeding']!r}"
        )
    if not isinstance(opts["avoid_repeats"], bool):
        raise ValueError("avoid_repeats must be true or false")
    for key, low in (("exact_window", 3), ("node_budget", 1), ("max_byes", 1)):
        value = opts[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ValueError(f"{key} must be a whole number of at least {low}, got {value!r}")
    return opts


def ranking_order(players: Iterable[Player]) -> list[Player]:
    """Standings order used for pairing: points, forint, rating (all descending), then id."""
    return sorted(players, key=lambda p: (-p.points, -p.forint, -p.rating, str(p.id)))


def rating_order(players: Iterable[Player]) -> list[Player]:
    """Round-1 order: live rating (descending), then id."""
    return sorted(players, key=lambda p: (-p.rating, str(p.id)))


def choose_byes(ranked: Sequence[Player], max_byes: int = 1) -> tuple[list[Player], list[Note]]:
    """The players who sit out this round and notes on any that broke the one-bye rule.

    ``ranked`` is in standings order; byes go to the lowest-ranked who may still have one.
    """
    count = len(ranked) % 3
    if count == 0:
        return [], []
    chosen: list[Player] = []
    notes: list[Note] = []
    for p in reversed(ranked):
        if len(chosen) == count:
            break
        if p.byes < max_byes:
            chosen.append(p)
    if len(chosen) < count:
        # Everyone has used their byes: fewest byes first, then lowest-ranked.
        place = {p.id: i for i, p in enumerate(ranked)}
        rest = [p for p in ranked if p not in chosen]
        rest.sort(key=lambda p: (p.byes, -place[p.id]))
        for p in rest[: count - len(chosen)]:
            chosen.append(p)
            notes.append(Note(SECOND_BYE, player=Ref(p.id), number=p.byes + 1, limit=max_byes))
    chosen.sort(key=lambda p: ranked.index(p))
    return chosen, notes


def count_repeats(tables: Iterable[Sequence[str]], met: Iterable[tuple[str, str]]) -> int:
    """Pairs seated together who have met before (each such pair counted once per table)."""
    seen = {frozenset(pair) for pair in met}
    total = 0
    for t in tables:
        for i in range(len(t)):
            for j in range(i + 1, len(t)):
                if frozenset((t[i], t[j])) in seen:
                    total += 1
    return total


# ---------------------------------------------------------------------------------------------------
# Pairing


def pair_round(
    players: Sequence[Player],
    met: Iterable[tuple[str, str]] = (),
    round_no: int = 1,
    options: dict | None = None,
) -> Pairing:
    """Tables of three (and byes) for one round.

    ``met`` lists every pair who has already sat at a table together in this event, once per meeting;
    pairs naming players not in ``players`` (withdrawn) are ignored.
    """
    opts = _options(options)
    if not isinstance(round_no, int) or isinstance(round_no, bool) or round_no < 1:
        raise PairingError(f"round must be a whole number of at least 1, got {round_no!r}")
    ids = [p.id for p in players]
    dupes = sorted({str(i) for i, c in Counter(ids).items() if c > 1})
    if dupes:
        raise PairingError(f"player id(s) listed twice: {', '.join(dupes)}")
    if len(players) < 3:
        raise PairingError(f"{len(players)} player(s) cannot fill a table of three")

    meetings: Counter[frozenset] = Counter()
    known = set(ids)
    for pair in met:
        a, b = pair
        if a == b:
            raise PairingError(f"a player cannot have met himself: {a}")
        if a in known and b in known:
            meetings[frozenset((a, b))] += 1

    # Round 1 is drawn on live ratings alone (III. 8. (3)); points carried in by mistake must not count.
    ranked = rating_order(players) if round_no == 1 else ranking_order(players)
    place = {p.id: i + 1 for i, p in enumerate(ranked)}
    bye_players, bye_notes = choose_byes(ranked, opts["max_byes"])
    notes = [Note(BYE, player=Ref(p.id), place=place[p.id]) for p in bye_players] + bye_notes
    bye_ids = {p.id for p in bye_players}
    seated = [p for p in ranked if p.id not in bye_ids]

    order = seated
    if round_no == 1 and opts["round1_seeding"] != "neighbours":
        order = _seed_round1(seated, opts["round1_seeding"])
        how = opts["round1_seeding"]
        notes.append(Note(SEEDED, how=Note(SEEDING_NAMES[how]) if how in SEEDING_NAMES else how))

    m = len(order)
    index = {p.id: i for i, p in enumerate(order)}
    adj = [0] * m
    for pair in meetings:
        a, b = tuple(pair)
        if a in index and b in index:
            ia, ib = index[a], index[b]
            adj[ia] |= 1 << ib
            adj[ib] |= 1 << ia

    if opts["avoid_repeats"]:
        engine = FieldSearch(adj, opts["exact_window"], opts["node_budget"])
        idx_tables, optimal, engine_notes = engine.run()
        notes.extend(engine_notes)
    else:
        idx_tables, optimal = [tuple(range(i, i + 3)) for i in range(0, m, 3)], True

    tables: list[Table] = []
    unpaired = list(range(m))
    total_repeats = sum(adj[a] >> b & 1 for trio in idx_tables for a, b in _pairs(sorted(trio)))
    for number, trio in enumerate(idx_tables, start=1):
        trio = tuple(sorted(trio))
        natural = unpaired[:3]
        reps = [(order[a].id, order[b].id) for a, b in _pairs(trio) if adj[a] >> b & 1]
        table_notes = []
        if list(trio) != natural:
            table_notes.extend(_pull_notes(order, place, trio, natural, adj, total_repeats))
        for a, b in reps:
            times = meetings[frozenset((a, b))]
            why = Note(NO_REPEAT_FREE if optimal else BUDGET_REPEATS)
            if times == 1:
                table_notes.append(Note(REPEAT, a=Ref(a), b=Ref(b), why=why))
            else:
                table_notes.append(Note(REPEAT_NTH, a=Ref(a), b=Ref(b), times=times + 1, why=why))
        for i in trio:
            unpaired.remove(i)
        ids3 = tuple(order[i].id for i in trio)
        tables.append(
            Table(
                number=number,
                players=ids3,
                places=tuple(place[x] for x in ids3),
                repeats=tuple(reps),
                notes=tuple(table_notes),
            )
        )
    if total_repeats:
        notes.append(Note(FEWEST_REPEATS if optimal else BUDGET_RAN_OUT, count=total_repeats))
    return Pairing(
        round=round_no,
        tables=tuple(tables),
        byes=tuple(p.id for p in bye_players),
        repeats=total_repeats,
        optimal=optimal,
        notes=tuple(notes),
    )


def _pairs(trio: Sequence[int]) -> Iterator[tuple[int, int]]:
    a, b, c = trio
    yield a, b
    yield a, c
    yield b, c


def _seed_round1(seated: list[Player], how: str) -> list[Player]:
    """Reorder so that consecutive triples are the round-1 tables."""
    t = len(seated) // 3
    thirds = [seated[0:t], seated[t : 2 * t], seated[2 * t : 3 * t]]
    if how == "snake":
        thirds[1] = thirds[1][::-1]
    out: list[Player] = []
    for i in range(t):
        out.extend(third[i] for third in thirds)
    return out


def _pull_notes(order, place, trio, natural, adj, total_repeats) -> list[Note]:
    met_pairs = [(a, b) for a, b in _pairs(natural) if adj[a] >> b & 1]
    if total_repeats:
        reason = Note(PULL_FEWEST, count=total_repeats)
    elif met_pairs:
        a, b = met_pairs[0]
        reason = Note(PULL_AVOID, a=Ref(order[a].id), b=Ref(order[b].id))
    else:
        reason = Note(PULL_BELOW)
    notes = []
    for i in trio:
        if i not in natural:
            notes.append(Note(PULLED_UP, player=Ref(order[i].id), place=place[order[i].id], reason=reason))
    return notes
