"""Ulti deal scoring (MAUSZ 2013 chapter I, with the Szolnok club's variations).

Plain Python, no Django: the score-sheet form and the ulti_settle command both build a Deal and call
settle(deal, rules). Amounts are whole units; Settlement.forints(unit) converts with int or Decimal.
"""

from .bids import TABLE, Bid, beats, bid_of
from .components import Component, SilentGame
from .deal import KONTRA, REKONTRA, Deal, Offence, Phase, Revoke, Side, Silent
from .errors import Player, ScoringError
from .ledger import Settlement, Transfer
from .names import parse_bid, parse_component, parse_silent_game
from .rulesets import MAUSZ, RULESETS, SZOLNOK, RuleSet, get_ruleset
from .settlement import settle

__all__ = [
    "KONTRA",
    "MAUSZ",
    "REKONTRA",
    "RULESETS",
    "SZOLNOK",
    "TABLE",
    "Bid",
    "Component",
    "Deal",
    "Offence",
    "Phase",
    "Player",
    "Revoke",
    "RuleSet",
    "ScoringError",
    "Settlement",
    "Side",
    "Silent",
    "SilentGame",
    "Transfer",
    "beats",
    "bid_of",
    "get_ruleset",
    "parse_bid",
    "parse_component",
    "parse_silent_game",
    "settle",
]
