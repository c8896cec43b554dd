"""Score sheets (pontozólap), pure: the form's fields, a recorded deal, and settling a whole sheet.

A deal is recorded as the game goes: dealer, declarer, bid, then for each part of the bid whether the
declarer made it and how far each defender doubled it, silent achievements and any irregularity. Parts
of the bid sit in "slots" so that one form row serves every bid: a bid has at most one component per slot.
The server settles every deal with ``ulti.engine.scoring.settle``; this module never counts money itself.

A recorded deal (what is stored)::

    {"dealer": key, "declarer": key, "bid": "red 40-100 ulti",
     "results": {"ulti": "won", "hundred": "lost" | "impossible", ...},
     "kontra": {"ulti": {key: 1 | 2}}, "silent": {"100": "declarer", "aces": "defenders_split", ...},
     "impossible_doubled": false, "revoke": null | {"player": key, "phase": "play", "offence": ""}}

Keys are the players' ids as text, in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ulti.engine.scoring import (
    TABLE,
    Component,
    Deal,
    Offence,
    Phase,
    Revoke,
    ScoringError,
    Side,
    Silent,
    SilentGame,
    settle,
)
from ulti.engine.scoring import RuleSet as ScoringRules
from ulti.engine.scoring import get_ruleset as get_scoring_ruleset

SLOTS = ("parti", "hundred", "ulti", "aces", "durchmars", "betli")
SLOT_OF = {
    Component.PARTI: "parti",
    Component.FORTY_HUNDRED: "hundred",
    Component.TWENTY_HUNDRED: "hundred",
    Component.ULTI: "ulti",
    Component.FOUR_ACES: "aces",
    Component.DURCHMARS: "durchmars",
    Component.OPEN_DURCHMARS: "durchmars",
    Component.NO_TRUMP_DURCHMARS: "durchmars",
    Component.REDURCHMARS: "durchmars",
    Component.NO_TRUMP_OPEN_DURCHMARS: "durchmars",
    Component.BETLI: "betli",
    Component.REBETLI: "betli",
    Component.OPEN_BETLI: "betli",
}
OUTCOMES = ("won", "lost", "impossible")
SILENT_GAMES = {"100": SilentGame.HUNDRED, "aces": SilentGame.FOUR_ACES, "ulti": SilentGame.ULTI,
                "durchmars": SilentGame.DURCHMARS}  # fmt: skip
# choice -> (side, made, split, took a trick)
SILENT_CHOICES = {
    "declarer": (Side.DECLARER, True, False, True),
    "defenders": (Side.DEFENDERS, True, False, True),
    "defenders_split": (Side.DEFENDERS, True, True, True),
    "declarer_failed": (Side.DECLARER, False, False, True),
    "defenders_failed": (Side.DEFENDERS, False, False, True),
    # I.2 (4): a 100 from melds alone, without a trick, is recorded but does not count.
    "declarer_notrick": (Side.DECLARER, True, False, False),
    "defenders_notrick": (Side.DEFENDERS, True, False, False),
}
PHASES = {p.value: p for p in Phase}
OFFENCES = {o.value: o for o in Offence}
BIDS = {bid.name: bid for bid in TABLE}


class SheetError(ValueError):
    """A sheet that cannot be settled. ``kind`` tells the caller what to say; ``deal`` is 1-based."""

    def __init__(self, kind: str, deal: int | None = None, detail: str = "", **params):
        self.kind, self.deal, self.detail, self.params = kind, deal, detail, params
        super().__init__(f"{kind} (deal {deal}): {detail}" if deal else f"{kind}: {detail}")


def scoring_rules(key: str, silent_games: tuple[str, ...]) -> ScoringRules:
    """The deal-scoring rules of a tournament rule set: the built-in ones, or the table with its silent games."""
    try:
        return get_scoring_ruleset(key)
    except ScoringError:
        names = {"100": SilentGame.HUNDRED, "four_aces": SilentGame.FOUR_ACES, "ulti": SilentGame.ULTI,
                 "durchmars": SilentGame.DURCHMARS}  # fmt: skip
        return ScoringRules(key, TABLE, frozenset(names[g] for g in silent_games if g in names))


def slots_of(bid_name: str) -> list[str]:
    bid = BIDS.get(bid_name)
    return [SLOT_OF[c] for c in bid.ordered] if bid else []


# --- From the form ----------------------------------------------------------------------------------------


def field_name(deal: int, name: str) -> str:
    return f"d{deal}_{name}"


def record_from_form(data: Mapping[str, str], number: int, keys: list[str]) -> dict | None:
    """One deal's record from POST data (``d<number>_...`` fields); None when the row is empty."""

    def get(name: str) -> str:
        return (data.get(field_name(number, name)) or "").strip()

    def seat(name: str) -> str:
        value = get(name)
        return keys[int(value)] if value.isdecimal() and int(value) < len(keys) else ""

    bid = get("bid")
    if not bid:
        return None
    record: dict = {"dealer": seat("dealer"), "declarer": seat("declarer"), "bid": bid}
    wanted = slots_of(bid) or list(SLOTS)
    results, kontra = {}, {}
    for slot in wanted:
        outcome = get(slot)
        if outcome:
            results[slot] = outcome
        levels = {}
        for i, key in enumerate(keys):
            level = get(f"{slot}_k{i}")
            if level in ("1", "2"):
                levels[key] = int(level)
        if levels:
            kontra[slot] = levels
    silent = {game: get(f"s_{game}") for game in SILENT_GAMES if get(f"s_{game}")}
    record.update(results=results, kontra=kontra, silent=silent, impossible_doubled=bool(get("impdbl")))
    revoker = seat("rv_player")
    record["revoke"] = (
        {"player": revoker, "phase": get("rv_phase") or "play", "offence": get("rv_offence")}
        if revoker
        else None
    )
    return record


def records_from_form(data: Mapping[str, str], keys: list[str], rows: int) -> list[tuple[int, dict]]:
    """(row number, record) of every filled row of the form."""
    out = []
    for number in range(1, rows + 1):
        record = record_from_form(data, number, keys)
        if record is not None:
            out.append((number, record))
    return out


def form_values(record: dict, number: int, keys: list[str]) -> dict[str, str]:
    """The form fields that show a stored record again (for corrections)."""
    seat = {key: str(i) for i, key in enumerate(keys)}
    values = {
        field_name(number, "dealer"): seat.get(record.get("dealer", ""), ""),
        field_name(number, "declarer"): seat.get(record.get("declarer", ""), ""),
        field_name(number, "bid"): record.get("bid", ""),
    }
    for slot, outcome in record.get("results", {}).items():
        values[field_name(number, slot)] = outcome
    for slot, levels in record.get("kontra", {}).items():
        for key, level in levels.items():
            if key in seat:
                values[field_name(number, f"{slot}_k{seat[key]}")] = str(level)
    for game, choice in record.get("silent", {}).items():
        values[field_name(number, f"s_{game}")] = choice
    if record.get("impossible_doubled"):
        values[field_name(number, "impdbl")] = "1"
    revoke = record.get("revoke")
    if revoke:
        values[field_name(number, "rv_player")] = seat.get(revoke.get("player"), "")
        values[field_name(number, "rv_phase")] = revoke.get("phase", "")
        values[field_name(number, "rv_offence")] = revoke.get("offence", "")
    return values


# --- To the engine ----------------------------------------------------------------------------------------


def deal_of(record: dict, keys: list[str], number: int) -> Deal:
    """The engine's Deal for a record; SheetError for what the form itself got wrong."""
    players = tuple(keys)
    if record.get("dealer") not in players:
        raise SheetError("dealer", number)
    if record.get("declarer") not in players:
        raise SheetError("declarer", number)
    bid = BIDS.get(record.get("bid", ""))
    if bid is None:
        raise SheetError("bid", number, detail=str(record.get("bid", "")))
    by_slot = {SLOT_OF[c]: c for c in bid.components}
    won, impossible = {}, set()
    for slot, outcome in record.get("results", {}).items():
        component = by_slot.get(slot)
        if component is None:
            continue  # a value left in a part the bid does not have
        if outcome not in OUTCOMES:
            raise SheetError("outcome", number, detail=outcome)
        if outcome == "impossible":
            impossible.add(component)
        else:
            won[component] = outcome == "won"
    kontra = {}
    for slot, levels in record.get("kontra", {}).items():
        component = by_slot.get(slot)
        if component is not None and levels:
            kontra[component] = {str(k): int(v) for k, v in levels.items()}
    silent = []
    for game, choice in record.get("silent", {}).items():
        if game not in SILENT_GAMES or choice not in SILENT_CHOICES:
            raise SheetError("silent", number, detail=f"{game}: {choice}")
        side, made, split, trick = SILENT_CHOICES[choice]
        silent.append(Silent(SILENT_GAMES[game], side, won=made, split=split, trick=trick))
    revoke = None
    if record.get("revoke"):
        r = record["revoke"]
        phase = PHASES.get(r.get("phase") or "play")
        if phase is None:
            raise SheetError("revoke", number, detail=str(r.get("phase")))
        offence = OFFENCES.get(r.get("offence") or "") if phase is Phase.BIDDING else None
        revoke = Revoke(player=str(r.get("player")), phase=phase, offence=offence)
        # An irregularity replaces the deal's results: what was noted before it stopped does not count.
        won, silent, impossible = {}, [], set()
    return Deal(
        players=players,
        declarer=record["declarer"],
        bid=bid,
        won=won,
        kontra=kontra,
        silent=tuple(silent),
        impossible=frozenset(impossible),
        impossible_doubled=bool(record.get("impossible_doubled")) and bool(impossible),
        revoke=revoke,
    )


@dataclass
class DealLine:
    number: int
    record: dict
    units: dict[str, int] = field(default_factory=dict)
    forints: dict[str, int] = field(default_factory=dict)
    running: dict[str, int] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    error: SheetError | None = None


@dataclass
class SheetResult:
    lines: list[DealLine]
    totals: dict[str, int]

    @property
    def errors(self) -> list[SheetError]:
        return [line.error for line in self.lines if line.error is not None]


def settle_sheet(
    rows: list[tuple[int, dict]], keys: list[str], rules: ScoringRules, unit: int
) -> SheetResult:
    """Settle every deal on its own; a bad deal carries its error and adds nothing to the totals."""
    totals = dict.fromkeys(keys, 0)
    lines = []
    for number, record in rows:
        line = DealLine(number, record)
        try:
            settlement = settle(deal_of(record, keys, number), rules)
        except SheetError as error:
            line.error = error
        except ScoringError as error:
            # The refusal itself rides along: the page words its template and params in the reader's language.
            line.error = SheetError("engine", number, detail=str(error), code=error.code, refusal=error)
        else:
            line.units = settlement.units
            line.forints = {k: int(v) for k, v in settlement.forints(unit).items()}
            line.reasons = [f"{t.payer}→{t.payee} {t.units}: {t.reason}" for t in settlement.transfers]
            for k in keys:
                totals[k] += line.forints[k]
        line.running = dict(totals)
        lines.append(line)
    return SheetResult(lines, totals)


def check_complete(result: SheetResult, deals_required: int) -> None:
    """Refuse a sheet that cannot become a round result: a bad deal, or not the rule set's deal count."""
    if result.errors:
        raise result.errors[0]
    if len(result.lines) != deals_required:
        raise SheetError("count", None, detail="", found=len(result.lines), required=deals_required)
