"""A deal as a table's phone sends it (issue #18), made into the score sheet's record (`sheet.py`).

The phone builds the record with a few taps: the declarer, the bid (the common ones are one tap each:
`QUICK_BIDS`), won / lost per part of the bid (all won unless tapped), and only when needed the kontras,
silent achievements and an irregularity. The dealer is not asked: the deal rotates from the first seat.
`clean` checks the shape of what was sent (every key one of the table's players, every value one the
sheet knows) and returns the record the sheet engine settles; anything else is a `DealError` with a code.
Plain Python.
"""

from __future__ import annotations

from ulti.engine.sheet import BIDS, OFFENCES, OUTCOMES, PHASES, SILENT_CHOICES, SILENT_GAMES, slots_of

# One tap each on the phone, in this order: the deals a round is mostly made of.
QUICK_BIDS = (
    "passz",
    "red passz",
    "40-100",
    "red 40-100",
    "ulti",
    "red ulti",
    "betli",
    "durchmars",
    "red durchmars",
    "40-100 ulti",
    "red 40-100 ulti",
    "20-100",
)


class DealError(ValueError):
    """What is wrong with a sent deal: ``code`` ("shape", "declarer", "bid", "outcome", "kontra",
    "silent", "revoke"), ``detail`` the value refused."""

    def __init__(self, code: str, detail: str = ""):
        self.code, self.detail = code, detail
        super().__init__(f"{code}: {detail}")


def dealer_of(number: int, keys: list[str]) -> str:
    """Deal 1 is dealt by the first seat, then the deal passes round the table."""
    return keys[(number - 1) % len(keys)]


def plain_record(declarer, bid, outcome) -> dict:
    """The deal as the picker's plain form sends it (a page without JavaScript): the declarer, the bid and
    one outcome for every part of the bid; `clean` checks it like any other."""
    bid = str(bid or "")
    return {
        "declarer": str(declarer or ""),
        "bid": bid,
        "results": {slot: str(outcome or "won") for slot in slots_of(bid)},
    }


def clean(raw, keys: list[str], number: int, silent_games=tuple(SILENT_GAMES)) -> dict:
    """The sheet record of deal ``number`` from the phone's ``raw`` mapping; DealError when it is not one."""
    if not isinstance(raw, dict):
        raise DealError("shape")
    declarer = str(raw.get("declarer", ""))
    if declarer not in keys:
        raise DealError("declarer", declarer)
    bid = str(raw.get("bid", ""))
    if bid not in BIDS:
        raise DealError("bid", bid)
    slots = slots_of(bid)
    defenders = [k for k in keys if k != declarer]
    results = {}
    given = raw.get("results") or {}
    if not isinstance(given, dict):
        raise DealError("shape")
    for slot in slots:
        outcome = str(given.get(slot, "won"))
        if outcome not in OUTCOMES:
            raise DealError("outcome", outcome)
        results[slot] = outcome
    kontra = {}
    doubled = raw.get("kontra") or {}
    if not isinstance(doubled, dict):
        raise DealError("shape")
    for slot, levels in doubled.items():
        if slot not in slots or not isinstance(levels, dict):
            raise DealError("kontra", str(slot))
        clean_levels = {}
        for key, level in levels.items():
            if str(key) not in defenders or level not in (0, 1, 2, "0", "1", "2"):
                raise DealError("kontra", f"{key}: {level}")
            if int(level):
                clean_levels[str(key)] = int(level)
        if clean_levels:
            kontra[slot] = clean_levels
    silent = {}
    achieved = raw.get("silent") or {}
    if not isinstance(achieved, dict):
        raise DealError("shape")
    allowed = {"four_aces": "aces"}
    allowed_games = {allowed.get(g, g) for g in silent_games}
    for game, choice in achieved.items():
        if not choice:
            continue
        if game not in SILENT_GAMES or game not in allowed_games or choice not in SILENT_CHOICES:
            raise DealError("silent", f"{game}: {choice}")
        silent[game] = choice
    revoke = raw.get("revoke")
    if revoke:
        if not isinstance(revoke, dict) or str(revoke.get("player", "")) not in keys:
            raise DealError("revoke", str(revoke))
        phase = str(revoke.get("phase") or "play")
        offence = str(revoke.get("offence") or "")
        if phase not in PHASES or (offence and offence not in OFFENCES):
            raise DealError("revoke", f"{phase} {offence}")
        revoke = {"player": str(revoke["player"]), "phase": phase, "offence": offence}
    else:
        revoke = None
    return {
        "dealer": dealer_of(number, keys),
        "declarer": declarer,
        "bid": bid,
        "results": results,
        "kontra": kontra,
        "silent": silent,
        "impossible_doubled": bool(raw.get("impossible_doubled")) and "impossible" in results.values(),
        "revoke": revoke,
    }
