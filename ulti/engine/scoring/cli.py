"""Reading deals as JSON and printing forints, for the ulti_settle management command.

One deal (a JSON object) prints {"A": 30, "B": -10, "C": -20}. A list of deals prints the totals per
player in the same shape; with per_deal the output is {"deals": [...one dict per deal...], "totals": {...}}.

A deal object:
  ruleset             "mausz" (default) or "szolnok"
  unit                forints per unit, a positive whole number (default 1)
  players, declarer   three names, and the one of them who played the bid
  bid                 a game of the table, any case, with or without accents ("piros negyvenszáz ulti")
  won                 component -> true/false from the declarer's side; every component of the bid,
                      including the parti that rides with ulti or four aces ("ulti" = ulti + parti)
  kontra              component -> {defender: 1 or "kontra", 2 or "rekontra"}
  silent              [{"game": "100" | "four aces" | "ulti" | "durchmars", "side": "declarer" | "defenders",
                        "won": true/false, "split": true if the defenders took the four aces between them}]
  impossible          [component, ...]: 40-100, 20-100 or ulti seen to be unplayable
  impossible_doubled  true if those were doubled in the first round of kontras
  revoke              null, {"player": P, "phase": "play"}, {"player": P, "phase": "deal"} or
                      {"player": P, "phase": "bidding", "offence": "talon" | "trump suit"}
Anything else in the object is an error, so a misspelt key is not silently ignored.
"""

import json
from decimal import Decimal

from .bids import Bid
from .components import Component
from .deal import KONTRA, REKONTRA, Deal, Offence, Phase, Revoke, Side, Silent
from .errors import ScoringError
from .names import parse_bid, parse_component, parse_silent_game
from .rulesets import RuleSet, get_ruleset
from .settlement import settle

_DEAL_KEYS = {
    "ruleset",
    "unit",
    "players",
    "declarer",
    "bid",
    "won",
    "kontra",
    "silent",
    "impossible",
    "impossible_doubled",
    "revoke",
}
_REQUIRED_KEYS = {"players", "declarer", "bid"}
_SILENT_KEYS = {"game", "side", "won", "split", "trick"}
_REVOKE_KEYS = {"player", "phase", "offence"}
_LEVELS = {1: KONTRA, 2: REKONTRA, "kontra": KONTRA, "rekontra": REKONTRA}
# In a no-trump game a plain "durchmars" can only mean the no-trump one.
_NO_TRUMP_READING = {
    Component.DURCHMARS: Component.NO_TRUMP_DURCHMARS,
    Component.OPEN_DURCHMARS: Component.NO_TRUMP_OPEN_DURCHMARS,
}


def run(text: str, per_deal: bool = False) -> str:
    """The command's whole job: JSON text in, JSON text out; ScoringError on any bad input."""
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        raise ScoringError(f"the input is not valid JSON: {exc}")
    if isinstance(data, dict):
        return json.dumps(settle_json_deal(data), ensure_ascii=False)
    if not isinstance(data, list) or not data:
        raise ScoringError("expected one deal (a JSON object) or a non-empty list of deals")
    results = []
    for number, item in enumerate(data, 1):
        try:
            results.append(settle_json_deal(item))
        except ScoringError as exc:
            raise ScoringError(f"deal {number}: {exc}")
    totals: dict[str, int] = {}
    for result in results:
        for player, forints in result.items():
            totals[player] = totals.get(player, 0) + forints
    return json.dumps({"deals": results, "totals": totals} if per_deal else totals, ensure_ascii=False)


def settle_json_deal(obj: object) -> dict[str, int]:
    """Forints per player for one deal given as parsed JSON."""
    deal, rules, unit = deal_from_json(obj)
    return settle(deal, rules).forints(unit)


def deal_from_json(obj: object) -> tuple[Deal, RuleSet, int]:
    obj = _mapping(obj, "a deal", _DEAL_KEYS)
    missing = _REQUIRED_KEYS - set(obj)
    if missing:
        raise ScoringError(f"a deal needs {', '.join(sorted(missing))}")
    rules = get_ruleset(obj.get("ruleset", "mausz"))
    unit = obj.get("unit", 1)
    if not isinstance(unit, int) or isinstance(unit, bool) or unit <= 0:
        raise ScoringError(f"unit must be a positive whole number of forints, got {unit!r}")
    players = obj["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ScoringError("players must be a list of three names")
    bid = parse_bid(obj["bid"], rules.table)
    impossible_doubled = obj.get("impossible_doubled", False)
    if not isinstance(impossible_doubled, bool):
        raise ScoringError("impossible_doubled must be true or false")
    deal = Deal(
        players=tuple(players),
        declarer=obj["declarer"],
        bid=bid,
        won=_won(obj.get("won", {}), bid),
        kontra=_kontra(obj.get("kontra", {}), bid),
        silent=tuple(_silent(item) for item in _list(obj.get("silent", []), "silent")),
        impossible=frozenset(
            _component_of(name, bid) for name in _list(obj.get("impossible", []), "impossible")
        ),
        impossible_doubled=impossible_doubled,
        revoke=_revoke(obj.get("revoke")),
    )
    return deal, rules, unit


def _mapping(obj: object, what: str, keys: set[str]) -> dict:
    if not isinstance(obj, dict):
        raise ScoringError(f"{what} must be a JSON object")
    unknown = set(obj) - keys
    if unknown:
        raise ScoringError(f"unknown key(s) in {what}: {', '.join(sorted(unknown))}")
    return obj


def _list(obj: object, what: str) -> list:
    if not isinstance(obj, list):
        raise ScoringError(f"{what} must be a list")
    return obj


def _component_of(name: object, bid: Bid) -> Component:
    component = parse_component(name)
    if bid.no_trump:
        component = _NO_TRUMP_READING.get(component, component)
    if component not in bid.components:
        parts = " + ".join(c.label for c in bid.ordered)
        raise ScoringError(f"{name!r} is not part of the bid {bid.name!r} ({parts})")
    return component


def _keyed_by_component(obj: object, what: str, bid: Bid) -> dict[Component, object]:
    if not isinstance(obj, dict):
        raise ScoringError(f"{what} must be a JSON object keyed by component")
    result = {}
    for name, value in obj.items():
        component = _component_of(name, bid)
        if component in result:
            raise ScoringError(f"{what} names {component.label} twice")
        result[component] = value
    return result


def _won(obj: object, bid: Bid) -> dict[Component, bool]:
    won = _keyed_by_component(obj, "won", bid)
    for component, value in won.items():
        if not isinstance(value, bool):
            raise ScoringError(f"won for {component.label} must be true or false, got {value!r}")
    return won


def _kontra(obj: object, bid: Bid) -> dict[Component, dict[str, int]]:
    kontra = {}
    for component, levels in _keyed_by_component(obj, "kontra", bid).items():
        if not isinstance(levels, dict):
            raise ScoringError(
                f"kontra on {component.label} must map a defender to 1 (kontra) or 2 (rekontra)"
            )
        kontra[component] = {}
        for player, level in levels.items():
            if type(level) not in (int, str) or level not in _LEVELS:
                raise ScoringError(f"kontra level {level!r} by {player!r}: use 1 (kontra) or 2 (rekontra)")
            kontra[component][player] = _LEVELS[level]
    return kontra


def _choice(value: object, enum: type, what: str):
    options = {member.value: member for member in enum}
    if not isinstance(value, str) or value not in options:
        raise ScoringError(f"{what} must be one of {', '.join(options)}, got {value!r}")
    return options[value]


def _flag(obj: dict, key: str, default: bool) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise ScoringError(f"{key} must be true or false, got {value!r}")
    return value


def _silent(obj: object) -> Silent:
    obj = _mapping(obj, "a silent achievement", _SILENT_KEYS)
    if "game" not in obj or "side" not in obj or "won" not in obj:
        raise ScoringError("a silent achievement needs game, side and won")
    return Silent(
        game=parse_silent_game(obj["game"]),
        side=_choice(obj["side"], Side, "side"),
        won=_flag(obj, "won", True),
        split=_flag(obj, "split", False),
        trick=_flag(obj, "trick", True),
    )


def _revoke(obj: object) -> Revoke | None:
    if obj is None:
        return None
    obj = _mapping(obj, "revoke", _REVOKE_KEYS)
    if "player" not in obj or "phase" not in obj:
        raise ScoringError("a revoke needs player and phase")
    offence = obj.get("offence")
    return Revoke(
        player=obj["player"],
        phase=_choice(obj["phase"], Phase, "phase"),
        offence=None if offence is None else _choice(offence, Offence, "offence"),
    )
