"""Swiss pairing (VSz 33): no team meets another twice (in the event or the stated stage).

The rule is procedural: the leader meets the best-ranked team it has not met, the next unpaired team
does the same, and so on down.  Followed blindly that can strand the last teams with opponents they
have all met, so the generator works in three steps:

1. a rank-order search (depth-first, leader first, opponents best first) returns the first pairing in
   that order that leaves nobody stranded - exactly the rule's pairing whenever one exists;
2. if the search runs out of its step budget, the greedy rule pairs the field top down and only the
   stranded tail (widened step by step) is re-paired by a minimum-cost perfect matching whose cost is
   the squared rank distance - the closest rematch-free pairing to rank order for that tail;
3. if even the whole field has no rematch-free pairing, the matching allows rematches at a cost above
   any rank distance, so the pairing with the fewest rematches wins; the round is flagged (or, with
   ``on_impossible="raise"``, `NoRematchFreePairing` is raised carrying that best pairing).

An odd field gives the bye to the lowest-ranked team without one, moving it up only when needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx

from teams.engine.options import merge_options
from teams.engine.pairing.byes import bye_candidates, bye_explanation
from teams.engine.pairing.pairings import (
    ALREADY_MET,
    BYE,
    BYE_MOVED,
    MATCHING_FALLBACK,
    PULLED_UP,
    PULLED_UP_PAST,
    RANKS,
    REMATCH,
    REMATCH_AVOIDED,
    REMATCH_OF_ROUND,
    REMATCH_UNAVOIDABLE,
    REPEAT_BYE,
    ROUND_SWISS,
    ROUND_SWISS_FALLBACK,
    ROUND_SWISS_REMATCHES,
    ROUND_SWISS_REPEAT_BYE,
    Note,
    Pairing,
    Ref,
    RoundPairing,
    number_tables,
)
from teams.engine.pairing.ranking import rank_for_pairing
from teams.engine.pairing.standing import TeamStanding

SWISS_DEFAULTS: Mapping[str, object] = {
    "tiebreak": "start_number",
    "stage_start_round": 1,  # meetings before this round do not count (a Swiss stage)
    "search_budget": 20_000,  # rank-order search steps before the matching takes over
    "on_impossible": "fewest_rematches",  # or "raise"
}

_COMPLETE_GRAPH_LIMIT = 64  # above this tail size the matching first tries rank-window edges only
_WINDOWS = (8, 32)


class NoRematchFreePairing(ValueError):
    """No pairing of this round avoids every rematch; `best` is the one with the fewest."""

    def __init__(self, message: str, best: RoundPairing):
        super().__init__(message)
        self.best = best


class _BudgetExhausted(Exception):
    pass


class _Field:
    """The ranked field as positions 0..n-1, with the meetings that count as position sets."""

    def __init__(self, ranked: list[TeamStanding], since_round: int):
        self.ranked = ranked
        self.n = len(ranked)
        position = {team.team_id: i for i, team in enumerate(ranked)}
        # Either side's record of a meeting counts, so a one-sided data-entry slip cannot cause a rematch.
        self.first_meeting: list[dict[int, int]] = [{} for _ in ranked]
        for a, team in enumerate(ranked):
            for opponent, round_no in team.met(since_round).items():
                b = position.get(opponent)
                if b is None or b == a:
                    continue
                for x, y in ((a, b), (b, a)):
                    known = self.first_meeting[x].get(y)
                    self.first_meeting[x][y] = round_no if known is None else min(known, round_no)
        self.met = [set(m) for m in self.first_meeting]


def _rank_order_search(field: _Field, bye: int | None, budget: list[int]) -> list[tuple[int, int]] | None:
    """First rematch-free pairing in rule order, or None if none exists (raises when out of budget)."""
    met = field.met

    def solve(avail: list[int]) -> list[tuple[int, int]] | None:
        if not avail:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            raise _BudgetExhausted
        top = avail[0]
        for j in range(1, len(avail)):
            other = avail[j]
            if other in met[top]:
                continue
            rest = solve(avail[1:j] + avail[j + 1 :])
            if rest is not None:
                return [(top, other), *rest]
        return None

    return solve([i for i in range(field.n) if i != bye])


def _greedy_prefix(field: _Field, bye: int | None) -> tuple[list[tuple[int, int]], list[int]]:
    """The rule applied without look-ahead: pairs made until someone is stranded, and the rest."""
    avail = [i for i in range(field.n) if i != bye]
    pairs: list[tuple[int, int]] = []
    while avail:
        top = avail[0]
        other = next((b for b in avail[1:] if b not in field.met[top]), None)
        if other is None:
            break
        pairs.append((top, other))
        avail.remove(top)
        avail.remove(other)
    return pairs, avail


_BYE_NODE = -1


def _match(
    field: _Field, nodes: list[int], allow_rematch: bool, bye_allowed: bool
) -> tuple[list[tuple[int, int]], int | None] | None:
    """Minimum-cost perfect matching of `nodes` (plus a bye node when odd), or None if impossible.

    Costs are tiered so that fewer rematches always win, then fewer repeated byes, then the squared
    rank distance (and the bye's distance from the bottom).
    """
    n = field.n
    distance_cap = n**3 + 1  # exceeds the sum of all squared rank distances in one round
    repeat_bye_cost = distance_cap
    rematch_cost = 4 * distance_cap
    odd = len(nodes) % 2 == 1
    if odd and not bye_allowed:
        return None
    nodes = sorted(nodes)
    windows: tuple[int | None, ...] = (None,)
    if len(nodes) > _COMPLETE_GRAPH_LIMIT:
        windows = (*_WINDOWS, None)
    for window in windows:
        graph = nx.Graph()
        graph.add_nodes_from(nodes)
        for a_index, a in enumerate(nodes):
            stop = len(nodes) if window is None else min(len(nodes), a_index + window + 1)
            for b in nodes[a_index + 1 : stop]:
                rematch = b in field.met[a]
                if rematch and not allow_rematch:
                    continue
                graph.add_edge(a, b, weight=(b - a) ** 2 + (rematch_cost if rematch else 0))
        if odd:
            for a in nodes:
                had_bye = field.ranked[a].byes > 0
                graph.add_edge(a, _BYE_NODE, weight=(n - 1 - a) ** 2 + (repeat_bye_cost if had_bye else 0))
        matching = nx.min_weight_matching(graph)
        if 2 * len(matching) == graph.number_of_nodes():
            pairs: list[tuple[int, int]] = []
            bye = None
            for a, b in matching:
                if _BYE_NODE in (a, b):
                    bye = b if a == _BYE_NODE else a
                else:
                    pairs.append((min(a, b), max(a, b)))
            return pairs, bye
    return None


def _tail_repair(field: _Field, bye: int | None) -> tuple[list[tuple[int, int]], int | None] | None:
    """Greedy top-down pairs, with a growing tail re-paired by matching; None if no rematch-free one."""
    pairs, stranded = _greedy_prefix(field, bye)
    undo = 1 if stranded else 0
    while True:
        keep = max(0, len(pairs) - undo)
        tail = [i for pair in pairs[keep:] for i in pair] + stranded
        if bye is not None:
            tail.append(bye)
        found = _match(field, tail, allow_rematch=False, bye_allowed=bye is not None)
        if found is not None:
            tail_pairs, tail_bye = found
            return pairs[:keep] + tail_pairs, tail_bye
        if keep == 0:
            return None
        undo *= 2


def _flags_for(
    field: _Field, pairs: list[tuple[int, int]], bye: int | None, preferred_bye: int | None
) -> list[Pairing]:
    """Re-walk the rule top down and explain every place where the result departs from it."""
    ranked = field.ranked
    partner: dict[int, int] = {}
    for a, b in pairs:
        partner[a], partner[b] = b, a
    remaining = [i for i in range(field.n) if i != bye]
    out: list[Pairing] = []
    while remaining:
        top = remaining.pop(0)
        other = partner[top]
        natural = remaining[0]
        first_unmet = next((q for q in remaining if q not in field.met[top]), None)
        remaining.remove(other)
        home, away = ranked[top].team_id, ranked[other].team_id
        flags: list[str] = []
        notes = [Note(RANKS, home=top + 1, away=other + 1)]
        if other in field.met[top]:
            flags.append(REMATCH)
            notes.append(Note(REMATCH_OF_ROUND, round=field.first_meeting[top][other]))
        else:
            if natural != other and natural in field.met[top]:
                flags.append(REMATCH_AVOIDED)
                notes.append(
                    Note(
                        ALREADY_MET,
                        team=Ref(home),
                        rank=natural + 1,
                        other=Ref(ranked[natural].team_id),
                        round=field.first_meeting[top][natural],
                    )
                )
            if first_unmet is not None and other != first_unmet:
                flags.append(PULLED_UP)
                notes.append(Note(PULLED_UP_PAST, team=Ref(away), rank=first_unmet + 1))
        out.append(Pairing(None, home, away, tuple(flags), Note.join(notes)))
    if bye is not None:
        team = ranked[bye]
        flags = [BYE]
        if team.byes:
            flags.append(REPEAT_BYE)
        elif preferred_bye is not None and bye != preferred_bye:
            flags.append(BYE_MOVED)
        preferred = ranked[preferred_bye] if preferred_bye is not None else team
        out.append(Pairing(None, team.team_id, None, tuple(flags), bye_explanation(team, preferred, ranked)))
    return out


def pair_swiss(teams: Iterable[TeamStanding], options: Mapping[str, object] | None = None) -> RoundPairing:
    opts = merge_options(SWISS_DEFAULTS, options)
    if opts["on_impossible"] not in ("fewest_rematches", "raise"):
        raise ValueError("on_impossible must be 'fewest_rematches' or 'raise'")
    ranked = rank_for_pairing(teams, {"tiebreak": opts["tiebreak"]})
    if len(ranked) < 2:
        raise ValueError("pairing needs at least two teams")
    field = _Field(ranked, int(opts["stage_start_round"]))
    position = {team.team_id: i for i, team in enumerate(ranked)}
    odd = field.n % 2 == 1
    candidates = [position[t.team_id] for t in bye_candidates(ranked)] if odd else [None]
    preferred_bye = candidates[0]

    round_flags: list[str] = []
    explanation = [Note(ROUND_SWISS)]
    result: tuple[list[tuple[int, int]], int | None] | None = None
    budget = [int(opts["search_budget"])]
    exhausted = False
    for bye in candidates:
        if odd and ranked[bye].byes > ranked[preferred_bye].byes:
            break  # a repeated bye is a matching decision, weighed against rematches
        try:
            pairs = _rank_order_search(field, bye, budget)
        except (_BudgetExhausted, RecursionError):
            # A field of well over a thousand teams outgrows the recursion limit: treat it as out of budget.
            exhausted = True
            break
        if pairs is not None:
            result = (pairs, bye)
            break
    if result is None and exhausted:
        result = _tail_repair(field, preferred_bye)
        if result is not None:
            round_flags.append(MATCHING_FALLBACK)
            explanation.append(Note(ROUND_SWISS_FALLBACK))
    elif result is None and odd:
        # Every team without a bye was tried and none works: a repeated bye may still avoid rematches.
        result = _match(field, list(range(field.n)), allow_rematch=False, bye_allowed=True)
    if result is None:
        result = _match(field, list(range(field.n)), allow_rematch=True, bye_allowed=odd)
        round_flags.append(REMATCH_UNAVOIDABLE)
    pairs, bye = result
    pairings = _flags_for(field, pairs, bye, preferred_bye)
    rematches = sum(1 for p in pairings if REMATCH in p.flags)
    if rematches:
        explanation.append(Note(ROUND_SWISS_REMATCHES, count=rematches))
    if any(REPEAT_BYE in p.flags for p in pairings):
        explanation.append(Note(ROUND_SWISS_REPEAT_BYE))
    pairing = RoundPairing(
        method="swiss",
        pairings=number_tables(pairings),
        ranking=tuple(team.team_id for team in ranked),
        flags=tuple(round_flags),
        explanation=Note.join(explanation),
        rematches=rematches,
    )
    if rematches and opts["on_impossible"] == "raise":
        raise NoRematchFreePairing(pairing.explanation, pairing)
    return pairing
