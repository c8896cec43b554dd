"""Bridge notation in the reader's language: seats É/K/D/Ny and "SZA" on Hungarian pages, N/E/S/W and "NT"
on English ones, suit symbols in both (hearts and diamonds marked red).

The stored values stay in the one English notation the engine writes ("4HX", "N", "3NTW+1"); only the
display changes. The template filters of bridge/templatetags/bridge_notation.py are these functions.
"""

import re

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RED = {"H", "D"}

# Notation, not prose: each language's table letters (kept out of the catalogue so a page is never half
# translated: "É" beside "NT" is exactly what clubs complained about).
_NOTATION = {
    "hu": {
        "seats": {"N": "É", "E": "K", "S": "D", "W": "Ny"},
        "sides": {"NS": "É-D", "EW": "K-Ny"},
        "NT": "SZA",
        "Pass": "Passz",
    },
    "en": {
        "seats": {"N": "N", "E": "E", "S": "S", "W": "W"},
        "sides": {"NS": "N-S", "EW": "E-W"},
        "NT": "NT",
        "Pass": "Pass",
    },
}
_CONTRACT = re.compile(r"^([1-7])(NT|[SHDC])(X{0,2})$")
# One par or room result written together: "4HW+1", "3NTXN=", "4SXXE-2".
_PAR_ITEM = re.compile(r"^([1-7])(NT|[SHDC])(X{0,2})([NESW])([=+-]\d*|=)$")


def notation() -> dict:
    """The table letters of the active language (Hungarian for "hu", English otherwise)."""
    return _NOTATION["hu"] if (get_language() or "").lower().startswith("hu") else _NOTATION["en"]


def seat(code: str) -> str:
    """'N' -> 'É' (Hungarian) or 'N'; anything unknown comes back as it is."""
    return notation()["seats"].get(code or "", code or "")


def side(code: str) -> str:
    """'NS' -> 'É-D' / 'N-S', 'EW' -> 'K-Ny' / 'E-W'."""
    return notation()["sides"].get(code or "", code or "")


def suit(letter: str) -> SafeString:
    """A suit letter as its symbol, hearts and diamonds in red."""
    symbol = SUIT_SYMBOLS[letter]
    return format_html('<span class="suit-red">{}</span>', symbol) if letter in _RED else mark_safe(symbol)


def strain(letter: str) -> SafeString:
    """'S' -> ♠, 'NT' -> 'SZA' / 'NT'."""
    if letter == "NT":
        return mark_safe(escape(notation()["NT"]))
    if letter in SUIT_SYMBOLS:
        return suit(letter)
    return escape(letter or "")


def _result(made: str) -> str:
    return "=" if made in ("=", "+0", "-0", "") else made


def contract(text: str, declarer: str = "") -> SafeString:
    """'4HX' (+ 'N') -> '4♥X É'; 'Pass' -> 'Passz'; a room line '4H N =' -> '4♥ É ='; text the notation
    does not know is shown escaped as it is."""
    text = (text or "").strip()
    if not text:
        return mark_safe("")
    if text.upper() == "PASS":
        return mark_safe(escape(notation()["Pass"]))
    parts = text.split()
    match = _CONTRACT.match(parts[0])
    if not match:
        joined = _PAR_ITEM.match(text)
        if joined:
            level, letter, doubled, by, made = joined.groups()
            return _written(level, letter, doubled, by, _result(made))
        return escape(text)
    level, letter, doubled = match.groups()
    by = parts[1] if len(parts) > 1 else (declarer or "")
    made = " ".join(parts[2:])
    return _written(level, letter, doubled, by, made)


def _written(level, letter, doubled, by, made) -> SafeString:
    pieces = [format_html("{}{}{}", level, strain(letter), doubled)]
    if by:
        pieces.append(escape(seat(by)))
    if made:
        pieces.append(escape(made))
    return mark_safe(" ".join(pieces))


def par(text: str) -> SafeString:
    """The stored par contracts '4HW+1, 3NTN=' -> '4♥ Ny +1, 3SZA É ='."""
    if not text:
        return mark_safe("")
    return mark_safe(", ".join(contract(item) for item in text.split(", ")))


def lead(card: str) -> SafeString:
    """'HT' -> '♥10' (the suit red)."""
    if not card:
        return mark_safe("")
    if card[0] not in SUIT_SYMBOLS:
        return escape(card)
    return format_html("{}{}", suit(card[0]), card[1:].replace("T", "10"))


# Plain text for a form field's value (no HTML): the page's notation, which the save reads back
# (bridge.engine.scoring.contract.parse_contract / parse_seat and csv_upload.parse_lead accept both).


def contract_value(code: str) -> str:
    """'3NT' -> '3SZA', '4HX' -> '4♥X', 'Pass' -> 'Passz' on Hungarian pages; unchanged on English ones."""
    code = (code or "").strip()
    table = notation()
    if code.upper() == "PASS":
        return table["Pass"]
    match = _CONTRACT.match(code)
    if not match or table is _NOTATION["en"]:
        return code
    level, letter, doubled = match.groups()
    return f"{level}{table['NT'] if letter == 'NT' else SUIT_SYMBOLS[letter]}{doubled}"


def seat_value(code: str) -> str:
    """'W' -> 'Ny' on Hungarian pages."""
    return seat(code)


def lead_value(card: str) -> str:
    """'HT' -> '♥10' on Hungarian pages; unchanged on English ones."""
    card = card or ""
    if not card or card[0] not in SUIT_SYMBOLS or notation() is _NOTATION["en"]:
        return card
    return SUIT_SYMBOLS[card[0]] + card[1:].replace("T", "10")
