"""How an event's field is split into groups and rounds, by format and size.

Sport ulti (MAUSZ IV.) follows ``ulti.engine.formats.propose_format``: 45 players play 3 groups of 15 for 5
rounds, 42 two groups of 21 for 8, 30 two groups of 15 for 5, 21 one group of 21 for 8, the day-two final
takes the top 21 (the top 15 of a 21-player field); other sizes get the engine's closest proposal. Day one
is paired Swiss in every group (II. 10.: the federation pairs by the Swiss system). Team ulti seats each
line (A, B, C) as its own group, so team-mates never meet and each line plays its equals. The NUB final
is all-play-all. Everything else is one Swiss group over the rule set's rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from ulti.engine.formats import FormatError, propose_format
from ulti.engine.schedule import is_kirkman_size, minimum_rounds


@dataclass(frozen=True)
class Plan:
    groups: tuple[int, ...]  # sizes; team events: one group per line
    rounds: int
    system: str  # "swiss" or "all_play_all"
    by_line: bool = False
    finalists: int | None = None


def all_play_all_rounds(players: int) -> int:
    return (players - 1) // 2 if is_kirkman_size(players) else minimum_rounds(players)


def plan_for(players: int, event_format: str, event_class: str, rounds: int) -> Plan:
    """The proposal for a field of ``players``; ``rounds`` is the rule set's number of rounds."""
    if event_format == "ulti_team":
        per_line = players // 3
        return Plan((per_line,) * 3, rounds, "swiss", by_line=True)
    if event_format == "sport_ulti" or event_class == "sport_ulti":
        try:
            fmt = propose_format(players)
        except FormatError:
            # Not a sport ulti field (not divisible by three, or too small): the caller refuses it.
            return Plan((players,), rounds, "swiss")
        if not fmt.final_players:
            return Plan(fmt.groups, fmt.rounds, "all_play_all")
        return Plan(fmt.groups, fmt.rounds, "swiss", finalists=fmt.final_players)
    if event_class == "nub_final":
        return Plan((players,), all_play_all_rounds(players), "all_play_all")
    return Plan((players,), rounds, "swiss")


def split_by_rating(ordered: list, sizes: tuple[int, ...]) -> list[list]:
    """Deal rating-ordered players into groups snake-wise, so every group gets strong and weak alike."""
    if sum(sizes) != len(ordered):
        raise ValueError(f"groups of {sizes} do not seat {len(ordered)} players")
    groups: list[list] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i = 0
    for player in ordered:
        while True:
            turn = (i // len(sizes)) % 2
            g = order[i % len(sizes)] if turn == 0 else order[::-1][i % len(sizes)]
            i += 1
            if len(groups[g]) < sizes[g]:
                groups[g].append(player)
                break
    return groups
