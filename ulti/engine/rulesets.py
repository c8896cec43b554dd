"""Tournament rule sets for ulti: table points, byes, rounds, deals, round time, silent games.

A rule set is plain, frozen data so that an event can store the exact rules it was played under
(``to_dict``) and an organiser can bring its own (``from_dict``), refused with a reason when it cannot
work. Two are built in: the federation's (MAUSZ Versenyszabályzat 2013, II. 10.) and the Szolnok club's
("Pontozás" in its rules).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = [
    "SILENT_GAMES",
    "RuleSet",
    "RuleSetError",
    "MAUSZ",
    "SZOLNOK",
    "get_ruleset",
    "ruleset_keys",
]

# Games that may be played "csendesen" (unannounced, paid at half value) in either rule book.
SILENT_GAMES = ("100", "four_aces", "ulti", "durchmars")

_KEY_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


class RuleSetError(ValueError):
    """A rule set that cannot be used; the message says why."""


@dataclass(frozen=True)
class RuleSet:
    """One organiser's scoring and structure rules.

    Points tuples are given in table order of forint result, best first:
    ``place_points`` = (1st, 2nd, 3rd) when all three differ; ``tie_first_points`` = (tied, tied, last);
    ``tie_last_points`` = (first, tied, tied); ``tie_all_points`` = all three equal.
    ``table_totals`` are the totals the rule book says a table shares out: MAUSZ "minden esetben 6 pont",
    Szolnok "6 vagy 7 pont" (3-2-1 and 2-2-2 give 6, 3-3-1 and 3-2-2 give 7).
    """

    key: str
    name: str
    place_points: tuple[int, int, int]
    tie_first_points: tuple[int, int, int]
    tie_last_points: tuple[int, int, int]
    tie_all_points: tuple[int, int, int]
    table_totals: tuple[int, ...]
    bye_points: int
    rounds: int
    deals_per_round: int
    min_round_minutes: int
    silent_games: tuple[str, ...] = ("100", "four_aces", "ulti")
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        _validate(self)

    # -- scoring ---------------------------------------------------------------------------------

    def points_for(self, outcome: str) -> tuple[int, int, int]:
        """Points for an outcome name: "places", "tie_first", "tie_last" or "tie_all"."""
        try:
            return {
                "places": self.place_points,
                "tie_first": self.tie_first_points,
                "tie_last": self.tie_last_points,
                "tie_all": self.tie_all_points,
            }[outcome]
        except KeyError:
            raise ValueError(f"unknown table outcome {outcome!r}") from None

    def allows_silent(self, game: str) -> bool:
        return game in self.silent_games

    # -- serialisation ---------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "key": self.key,
            "name": self.name,
            "place_points": list(self.place_points),
            "tie_first_points": list(self.tie_first_points),
            "tie_last_points": list(self.tie_last_points),
            "tie_all_points": list(self.tie_all_points),
            "table_totals": list(self.table_totals),
            "bye_points": self.bye_points,
            "rounds": self.rounds,
            "deals_per_round": self.deals_per_round,
            "min_round_minutes": self.min_round_minutes,
            "silent_games": list(self.silent_games),
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict) -> RuleSet:
        """Build an organiser's own rule set; anything missing, unknown or inconsistent is refused."""
        if not isinstance(data, dict):
            raise RuleSetError("a rule set must be given as a mapping of field names to values")
        required = (
            "key",
            "name",
            "place_points",
            "tie_first_points",
            "tie_last_points",
            "tie_all_points",
            "table_totals",
            "bye_points",
            "rounds",
            "deals_per_round",
            "min_round_minutes",
        )
        optional = ("silent_games", "source")
        unknown = sorted(set(data) - set(required) - set(optional))
        if unknown:
            raise RuleSetError(f"unknown rule set field(s): {', '.join(unknown)}")
        missing = [k for k in required if k not in data]
        if missing:
            raise RuleSetError(f"missing rule set field(s): {', '.join(missing)}")

        def triple(name: str) -> tuple[int, int, int]:
            value = data[name]
            if not isinstance(value, list | tuple) or len(value) != 3:
                raise RuleSetError(f"{name} must list exactly three points (best forint result first)")
            return tuple(value)  # type: ignore[return-value]

        totals = data["table_totals"]
        # "6" and "6 or 7" are both natural ways to state it.
        if isinstance(totals, int) and not isinstance(totals, bool):
            totals = (totals,)
        if not isinstance(totals, list | tuple) or not totals:
            raise RuleSetError("table_totals must be a number or a non-empty list of numbers")
        silent = data.get("silent_games", ("100", "four_aces", "ulti"))
        if isinstance(silent, str) or not isinstance(silent, list | tuple):
            raise RuleSetError("silent_games must be a list of game names")
        return cls(
            key=data["key"],
            name=data["name"],
            place_points=triple("place_points"),
            tie_first_points=triple("tie_first_points"),
            tie_last_points=triple("tie_last_points"),
            tie_all_points=triple("tie_all_points"),
            table_totals=tuple(totals),
            bye_points=data["bye_points"],
            rounds=data["rounds"],
            deals_per_round=data["deals_per_round"],
            min_round_minutes=data["min_round_minutes"],
            silent_games=tuple(silent),
            source=data.get("source", ""),
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(rs: RuleSet) -> None:
    if not isinstance(rs.key, str) or not _KEY_RE.match(rs.key):
        raise RuleSetError(
            f"rule set key {rs.key!r} must be 1-40 lower-case letters, digits, '-' or '_', starting with a "
            "letter or digit"
        )
    if not isinstance(rs.name, str) or not rs.name.strip():
        raise RuleSetError("rule set name must not be empty")

    outcomes = {
        "place_points": rs.place_points,
        "tie_first_points": rs.tie_first_points,
        "tie_last_points": rs.tie_last_points,
        "tie_all_points": rs.tie_all_points,
    }
    for name, pts in outcomes.items():
        if not isinstance(pts, tuple) or len(pts) != 3:
            raise RuleSetError(f"{name} must list exactly three points (best forint result first)")
        for p in pts:
            if not _is_int(p):
                raise RuleSetError(f"{name}: points must be whole numbers, got {p!r}")
            if p < 0:
                raise RuleSetError(f"{name}: points cannot be negative, got {p}")

    first, second, third = rs.place_points
    if not first > second > third:
        raise RuleSetError(
            f"place_points {first}-{second}-{third} are out of order: 1st must score more than 2nd, "
            "and 2nd more than 3rd"
        )

    a, b, c = rs.tie_first_points
    if a != b:
        raise RuleSetError(
            f"tie_first_points {a}-{b}-{c}: the two players tied for first must score the same"
        )
    if not second <= a <= first:
        raise RuleSetError(
            f"tie_first_points {a}-{b}-{c}: players tied for first must score between the 2nd place "
            f"({second}) and the 1st place ({first}) points"
        )
    if not c < a:
        raise RuleSetError(
            f"tie_first_points {a}-{b}-{c}: the last player must score less than the tied pair"
        )

    a, b, c = rs.tie_last_points
    if b != c:
        raise RuleSetError(f"tie_last_points {a}-{b}-{c}: the two players tied for last must score the same")
    if not third <= b <= second:
        raise RuleSetError(
            f"tie_last_points {a}-{b}-{c}: players tied for last must score between the 3rd place "
            f"({third}) and the 2nd place ({second}) points"
        )
    if not a > b:
        raise RuleSetError(f"tie_last_points {a}-{b}-{c}: the winner must score more than the tied pair")

    a, b, c = rs.tie_all_points
    if not a == b == c:
        raise RuleSetError(f"tie_all_points {a}-{b}-{c}: in a three-way tie everyone must score the same")
    if not third <= a <= first:
        raise RuleSetError(
            f"tie_all_points {a}-{b}-{c}: a three-way tie must score between the 3rd ({third}) and the 1st "
            f"({first}) place points"
        )

    totals = rs.table_totals
    if not isinstance(totals, tuple) or not totals:
        raise RuleSetError("table_totals must state at least one total")
    for t in totals:
        if not _is_int(t) or t <= 0:
            raise RuleSetError(f"table_totals: every total must be a positive whole number, got {t!r}")
    if len(set(totals)) != len(totals):
        raise RuleSetError(f"table_totals {list(totals)} lists a total twice")
    sums = {name: sum(pts) for name, pts in outcomes.items()}
    for name, s in sums.items():
        if s not in totals:
            stated = " or ".join(str(t) for t in totals)
            raise RuleSetError(
                f"{name} {'-'.join(map(str, outcomes[name]))} shares out {s} points, but the rule set "
                f"states {stated} per table"
            )
    unused = [t for t in totals if t not in sums.values()]
    if unused:
        raise RuleSetError(
            f"table_totals states {unused[0]} points per table but no outcome shares out {unused[0]}"
        )

    if not _is_int(rs.bye_points) or rs.bye_points < 0:
        raise RuleSetError(f"bye_points must be a whole number of at least 0, got {rs.bye_points!r}")
    if rs.bye_points > first:
        raise RuleSetError(
            f"bye_points {rs.bye_points} would be worth more than winning a table ({first} points)"
        )
    for name in ("rounds", "deals_per_round", "min_round_minutes"):
        value = getattr(rs, name)
        if not _is_int(value) or value < 1:
            raise RuleSetError(f"{name} must be a whole number of at least 1, got {value!r}")

    if not isinstance(rs.silent_games, tuple):
        raise RuleSetError("silent_games must be a list of game names")
    for game in rs.silent_games:
        if game not in SILENT_GAMES:
            raise RuleSetError(f"silent_games: unknown game {game!r} (known: {', '.join(SILENT_GAMES)})")
    if len(set(rs.silent_games)) != len(rs.silent_games):
        raise RuleSetError("silent_games lists a game twice")


MAUSZ = RuleSet(
    key="mausz",
    name="MAUSZ Versenyszabályzat (2013)",
    place_points=(4, 2, 0),
    tie_first_points=(3, 3, 0),
    tie_last_points=(4, 1, 1),
    tie_all_points=(2, 2, 2),
    table_totals=(6,),
    bye_points=4,
    rounds=10,
    deals_per_round=12,
    min_round_minutes=30,
    silent_games=("100", "four_aces", "ulti"),
    source="MAUSZ Versenyszabályzat 2013, I. 2. (1) and II. 10. (1)-(3)",
)

# The club book also lists durchmars among the silent games; its tables share out 6 or 7 points.
SZOLNOK = RuleSet(
    key="szolnok",
    name="Szolnoki Ulti Egyesület",
    place_points=(3, 2, 1),
    tie_first_points=(3, 3, 1),
    tie_last_points=(3, 2, 2),
    tie_all_points=(2, 2, 2),
    table_totals=(6, 7),
    bye_points=3,
    rounds=6,
    deals_per_round=18,
    min_round_minutes=40,
    silent_games=("100", "four_aces", "ulti", "durchmars"),
    source="Szolnoki Ulti Egyesület szabályai: Csendes teljesítések; Pontozás, leosztások",
)

_REGISTRY = {rs.key: rs for rs in (MAUSZ, SZOLNOK)}


def ruleset_keys() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


def get_ruleset(key: str) -> RuleSet:
    """A built-in rule set by key ("mausz" or "szolnok"); case and surrounding spaces are ignored."""
    normal = key.strip().lower() if isinstance(key, str) else key
    try:
        return _REGISTRY[normal]
    except (KeyError, TypeError):
        raise RuleSetError(f"unknown rule set {key!r}; known: {', '.join(ruleset_keys())}") from None
