"""A deal as a table's phone sends it (issue #18), made into the score sheet's record (`sheet.py`).

The phone builds the record with a few taps: the declarer, the bid (the common ones are one tap each:
`QUICK_BIDS`), won / lost per part of the bid (all won unless tapped), and only when needed the kontras,
silent achievements and an irregularity. The dealer is not asked: the deal rotates from the first seat.
`clean` checks the shape of what was sent (every key one of the table's players, every value one the
sheet knows) and returns the record the sheet engine settles; anything else is a `DealError` with a code.
Plain Python.
"""

from __future__ import annotations

from ulti.engine.scoring.components import SUITED_DURCHMARS
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
    """What is wrong with a sent deal: ``code`` ("shape", "declarer", "bid", "two_bids", "outcome",
    "kontra", "impossible_doubled", "silent", "revoke"), ``detail`` the value refused."""

    def __init__(self, code: str, detail: str = ""):
        self.code, self.detail = code, detail
        super().__init__(f"{code}: {detail}")


def dealer_of(number: int, keys: list[str]) -> str:
    """Deal 1 is dealt by the first seat, then the deal passes round the table."""
    return keys[(number - 1) % len(keys)]


# --- the plain form (a phone without JavaScript) ----------------------------------------------------------
#
# The page's plain form posts the deal as ordinary fields, and `plain_record` turns them into the same raw
# deal the picker sends as JSON (so `clean` and the sheet engine see one shape). Step one: the declarer,
# the bid (a quick bid's radio button, or any bid from the list) and one outcome for every part; step two,
# for the chosen bid and declarer, the rest of the deal:
#
#   r_<slot>            the part's outcome (won / lost / impossible), instead of the one outcome
#   k_<slot>            suited game: the part's one kontra, "<key>:<level>" (who said it, 1 kontra,
#                       2 rekontra) or "0" none; one defender's kontra binds both there (I.3 (3))
#   k_<slot>_<key>      no-trump game: that defender's own kontra level on the part, 0 / 1 / 2 (a kontra
#                       binds only the doubler there); either shape is read in either game
#   impdbl              "1": the impossible parts were doubled in the first round (I.4 (5)); refused
#                       ("impossible_doubled") when no part is marked impossible
#   s_<game>            a silent achievement's choice (SILENT_CHOICES), "" none
#   rv_player, rv_when  a revoke: the offender's key and when (REVOKE_TIMES), "" none

KONTRA_LEVELS = (0, 1, 2)  # no kontra, kontra, rekontra: the levels the sheet engine records
# When an irregularity happened, as one choice: the phase, and in the bidding the offence that costs money.
REVOKE_TIMES = {
    "play": ("play", ""),
    "deal": ("deal", ""),
    "bidding:talon": ("bidding", "talon"),
    "bidding:trump suit": ("bidding", "trump suit"),
}
# Only these parts can be seen to be impossible from the defenders' hands (I.4 (5)).
IMPOSSIBLE_SLOTS = ("hundred", "ulti")
_SILENT_RULE_NAMES = {"four_aces": "aces"}  # the rule set's name of a silent game -> the sheet's


def outcomes_of(slot: str) -> tuple[str, ...]:
    return OUTCOMES if slot in IMPOSSIBLE_SLOTS else ("won", "lost")


def silent_games_for(bid_name: str, silent_games=tuple(SILENT_GAMES)) -> list[str]:
    """The silent games worth asking about beside ``bid_name`` under the rule set's ``silent_games``: none
    in a no-trump game, none the bid already claims, no silent 100 in a durchmars game (announcing a meld
    there is a revoke, I.6 (3)). The engine refuses these anyway; the form does not offer them."""
    bid = BIDS.get(bid_name)
    if bid is None or bid.no_trump:
        return []
    allowed = {_SILENT_RULE_NAMES.get(g, g) for g in silent_games}
    out = []
    for game, silent in SILENT_GAMES.items():
        if game not in allowed or silent.declared_forms & bid.components:
            continue
        if game == "100" and bid.components & SUITED_DURCHMARS:
            continue
        out.append(game)
    return out


def kontra_binds_both(bid_name: str) -> bool:
    """In a suited game one defender's kontra binds both defenders (the higher level counts), in a no-trump
    game only the doubler (I.3 (3)): the former has one kontra per part, the latter one per defender."""
    bid = BIDS.get(bid_name)
    return bid is not None and not bid.no_trump


def one_kontra(levels: dict[str, int], defenders: list[str]) -> dict[str, int]:
    """A suited part's kontras as the one that counts: the highest level, said by the first defender in
    seat order who reached it (a second defender's kontra on the same part changes nothing, I.3 (3))."""
    if len(levels) < 2:
        return dict(levels)
    top = max(levels.values())
    return {next(d for d in defenders if levels.get(d) == top): top}


def chosen_bid(fields) -> str:
    """The bid of the plain form: a quick bid's radio button or one from the list (either alone)."""
    quick = str(fields.get("bid") or "").strip()
    other = str(fields.get("bid_other") or "").strip()
    if quick and other and quick != other:
        raise DealError("two_bids", f"{quick} / {other}")
    return other or quick


def plain_record(fields) -> dict:
    """The raw deal (as the picker sends it) from the plain form's fields (a mapping of text)."""

    def get(name: str) -> str:
        return str(fields.get(name) or "").strip()

    bid = chosen_bid(fields)
    every = get("outcome") or "won"
    slots = slots_of(bid)
    results = {slot: get(f"r_{slot}") or every for slot in slots}
    kontra: dict = {}
    for name in fields:
        if not str(name).startswith("k_"):
            continue
        slot, _sep, key = str(name)[2:].partition("_")
        level = get(name)
        if not level or level == "0":
            continue
        if not key:  # a suited part's one kontra: who said it and how far it went
            key, _sep, level = level.rpartition(":")
            if not key:
                raise DealError("kontra", f"{slot}: {level}")
        kontra.setdefault(slot, {})[key] = level
    impossible_doubled = get("impdbl") == "1"
    if impossible_doubled and "impossible" not in results.values():
        # The box belongs to a part marked impossible; ticked alone it is a slip (a part not marked, or
        # the box ticked by mistake) that would change the money if guessed either way.
        raise DealError("impossible_doubled")
    silent = {}
    for name in fields:
        if str(name).startswith("s_") and get(name):
            silent[str(name)[2:]] = get(name)
    revoke = None
    if get("rv_player"):
        when = get("rv_when") or "play"
        phase, offence = REVOKE_TIMES.get(when, (when, ""))
        revoke = {"player": get("rv_player"), "phase": phase, "offence": offence}
    return {
        "declarer": get("declarer"),
        "bid": bid,
        "results": results,
        "kontra": kontra,
        "silent": silent,
        "impossible_doubled": impossible_doubled,
        "revoke": revoke,
    }


def plain_fields(record: dict) -> dict[str, str]:
    """The plain form's fields that show a deal again (a correction, a refused form): `plain_record`'s
    inverse. Every part's outcome and every recorded kontra; the silent and revoke fields when given."""
    fields = {"declarer": str(record.get("declarer") or ""), "bid": str(record.get("bid") or "")}
    for slot, outcome in (record.get("results") or {}).items():
        fields[f"r_{slot}"] = str(outcome)
    both = kontra_binds_both(fields["bid"])
    for slot, levels in (record.get("kontra") or {}).items():
        levels = {str(k): int(v) for k, v in (levels or {}).items() if int(v)}
        if both and levels:
            # One kontra counts (`clean` keeps only it); a record stored before that keeps its highest.
            key = max(levels, key=levels.__getitem__)
            fields[f"k_{slot}"] = f"{key}:{levels[key]}"
            continue
        for key, level in levels.items():
            fields[f"k_{slot}_{key}"] = str(level)
    for game, choice in (record.get("silent") or {}).items():
        fields[f"s_{game}"] = str(choice or "")
    if record.get("impossible_doubled"):
        fields["impdbl"] = "1"
    revoke = record.get("revoke")
    if revoke:
        fields["rv_player"] = str(revoke.get("player") or "")
        phase, offence = str(revoke.get("phase") or "play"), str(revoke.get("offence") or "")
        fields["rv_when"] = f"{phase}:{offence}" if phase == "bidding" and offence else phase
    return fields


def clean(raw, keys: list[str], number: int, silent_games=tuple(SILENT_GAMES)) -> dict:
    """The sheet record of deal ``number`` from the phone's ``raw`` mapping; DealError when it is not one.
    A suited part keeps one kontra (`one_kontra`), however many defenders the picker tapped on it."""
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
            if str(key) not in defenders or str(level) not in {str(v) for v in KONTRA_LEVELS}:
                raise DealError("kontra", f"{key}: {level}")
            if int(level):
                clean_levels[str(key)] = int(level)
        if clean_levels and kontra_binds_both(bid):
            clean_levels = one_kontra(clean_levels, defenders)
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
