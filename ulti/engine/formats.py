"""Field formats for sport ulti (MAUSZ IV. 12. (5) and 13. (1)).

The rule book fixes four fields:

    players  day one (qualifier)       day two (final)
    45       3 groups of 15, 5 rounds  top 21 overall
    42       2 groups of 21, 8 rounds  top 21 overall
    30       2 groups of 15, 5 rounds  top 21 overall
    21       1 group of 21, 8 rounds   top 15

and allows only fields divisible by three (entries come as teams of three). For any other field divisible
by three this module proposes the closest thing in the same spirit:

- groups of at most 21, as few groups as that allows, sizes as equal as whole tables permit (the table's
  45 -> 3 x 15 and 30 -> 2 x 15 follow from this rule, as do 42 -> 2 x 21 and 21 -> 1 x 21);
- every group plays the same number of rounds so the combined ranking compares like with like: 8 when
  every group has 21 players, as in the table, otherwise 5 (the table's choice for groups of 15), never
  more than a group can play without two players meeting twice;
- day two is the top 21 overall, or the top 15 when the field is 21 (as in the table); fields of 18 or
  fewer are smaller than any final in the table and are proposed as a single all-play-all group.

The rule book does not say how many rounds the day-two final has; the proposal is the all-play-all of
the national final (II. 10. (7), "a döntőben minden játékos mindenkivel játszik"): 10 rounds for 21
players, 7 for 15 (Kirkman schedules, see ulti.engine.schedule).
"""

from __future__ import annotations

from dataclasses import dataclass

from ulti.engine.schedule import Schedule, is_kirkman_size, minimum_rounds, round_robin

__all__ = ["FormatError", "FieldFormat", "RULE_TABLE", "propose_format", "group_schedules"]

MIN_PLAYERS = 9
MAX_GROUP = 21

# players -> (group sizes, day-one rounds, day-two final size), from IV. 13. (1)
RULE_TABLE: dict[int, tuple[tuple[int, ...], int, int]] = {
    45: ((15, 15, 15), 5, 21),
    42: ((21, 21), 8, 21),
    30: ((15, 15), 5, 21),
    21: ((21,), 8, 15),
}


class FormatError(ValueError):
    pass


@dataclass(frozen=True)
class FieldFormat:
    players: int
    groups: tuple[int, ...]  # day-one group sizes
    rounds: int  # day-one rounds, the same in every group
    final_players: int  # day-two final (0: no separate final)
    final_rounds: int
    from_rule_table: bool
    notes: tuple[str, ...] = ()

    def describe(self) -> str:
        sizes = {}
        for g in self.groups:
            sizes[g] = sizes.get(g, 0) + 1
        groups = " + ".join(f"{k} x {g}" for g, k in sizes.items())
        text = f"{self.players} players: day one {groups}, {self.rounds} rounds"
        if self.final_players:
            text += f"; day two final of the top {self.final_players}, {self.final_rounds} rounds"
        return text


def _max_clean_rounds(size: int) -> int:
    """Rounds a group can play before someone must meet a player twice (two new opponents a round)."""
    return (size - 1) // 2


def propose_format(players: int) -> FieldFormat:
    """The rule book's format for 45, 42, 30 and 21 players; the closest sensible one for others."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise FormatError(f"the field size must be a whole number, got {players!r}")
    if players % 3:
        low = players - players % 3
        high = low + 3
        raise FormatError(
            f"sport ulti needs a field divisible by three (entries are teams of three): {players} players "
            f"cannot be seated; the nearest fields are {low} and {high}"
        )
    if players < MIN_PLAYERS:
        raise FormatError(
            f"{players} players are too few for a sport ulti event (at least {MIN_PLAYERS}: three tables)"
        )

    if players in RULE_TABLE:
        groups, rounds, final = RULE_TABLE[players]
        final_rounds = (final - 1) // 2
        return FieldFormat(
            players=players,
            groups=groups,
            rounds=rounds,
            final_players=final,
            final_rounds=final_rounds,
            from_rule_table=True,
            notes=(
                "MAUSZ IV. 13. (1)",
                f"final rounds not fixed by the rule book: all-play-all of {final} is {final_rounds} rounds",
            ),
        )

    if players <= 18:
        rounds = _max_clean_rounds(players) if is_kirkman_size(players) else minimum_rounds(players)
        return FieldFormat(
            players=players,
            groups=(players,),
            rounds=rounds,
            final_players=0,
            final_rounds=0,
            from_rule_table=False,
            notes=(
                f"{players} players are fewer than any final in the rule book (15 of 21): one all-play-all group",
            ),
        )

    count = -(-players // MAX_GROUP)
    tables = players // 3
    groups = tuple(3 * (tables // count + (1 if i < tables % count else 0)) for i in range(count))
    smallest = min(groups)
    rounds = 8 if smallest >= MAX_GROUP else 5
    rounds = min(rounds, _max_clean_rounds(smallest))
    final = 21 if players > 21 else 15
    notes = [
        f"not in the rule book's table: {count} group(s) of at most {MAX_GROUP}, as equal as whole tables allow",
        f"{rounds} rounds in every group so that the combined ranking compares like with like",
        f"final rounds not fixed by the rule book: all-play-all of {final} is {(final - 1) // 2} rounds",
    ]
    if any(not is_kirkman_size(g) for g in groups):
        notes.append(
            "groups not of 9, 15, 21, ... players have no all-play-all without repeats; pair them Swiss"
        )
    return FieldFormat(
        players=players,
        groups=groups,
        rounds=rounds,
        final_players=final,
        final_rounds=(final - 1) // 2,
        from_rule_table=False,
        notes=tuple(notes),
    )


def group_schedules(fmt: FieldFormat) -> list[Schedule]:
    """Day-one schedule of every group: the first ``rounds`` rounds of its all-play-all.

    Players of group g are numbered 1..size within the group.
    """
    return [round_robin(size, fmt.rounds) for size in fmt.groups]
