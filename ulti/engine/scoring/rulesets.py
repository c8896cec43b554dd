"""The rule sets a tournament can be scored under: the federation's and the Szolnok club's."""

from dataclasses import dataclass

from .bids import TABLE, Bid
from .components import SilentGame
from .errors import ScoringError


@dataclass(frozen=True)
class RuleSet:
    name: str
    table: tuple[Bid, ...]
    silent_games: frozenset[SilentGame]


# The Szolnok rule book lost its table in extraction; its bidding principles match MAUSZ word for word,
# so it shares the table. Its one scoring difference is that a durchmars may also be made silently.
MAUSZ = RuleSet("mausz", TABLE, frozenset({SilentGame.HUNDRED, SilentGame.FOUR_ACES, SilentGame.ULTI}))
SZOLNOK = RuleSet("szolnok", TABLE, MAUSZ.silent_games | {SilentGame.DURCHMARS})

RULESETS = {rules.name: rules for rules in (MAUSZ, SZOLNOK)}


def get_ruleset(name: str) -> RuleSet:
    rules = RULESETS.get(name.strip().lower()) if isinstance(name, str) else None
    if rules is None:
        raise ScoringError(f"unknown rule set {name!r}; known: {', '.join(RULESETS)}")
    return rules
