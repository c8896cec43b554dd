"""Reading bid, component and silent-game names as players write them, in Hungarian or English.

Case, accents and punctuation do not matter: "Piros negyvenszáz ulti", "piros 40 100 ulti" and
"red 40-100 ulti" are the same bid.
"""

import re
import unicodedata
from collections import Counter

from .bids import TABLE, Bid, bid_of
from .components import Component, SilentGame
from .errors import ScoringError

# Word groups and what they mean; the longest group is tried first so "40 100" is not read as "100".
_PHRASES = {
    "red": ["piros", "red"],
    "parti": ["passz", "parti", "pass"],
    "40-100": ["40 100", "negyvenszaz", "negyven szaz"],
    "20-100": ["20 100", "huszszaz", "husz szaz"],
    "ulti": ["ulti"],
    "aces": ["negy asz", "negyasz", "4 asz", "four aces", "4 aces"],
    "durchmars": ["durchmars"],
    "redurchmars": ["redurchmars"],
    "open": ["teritett", "open"],
    "betli": ["betli"],
    "rebetli": ["rebetli"],
    "no-trump": ["szintelen", "no trump", "notrump"],
    "suited": ["szines", "suited"],
    "100": ["100", "szaz", "hundred"],
}
_VOCABULARY = sorted(
    ((tuple(phrase.split()), word) for word, phrases in _PHRASES.items() for phrase in phrases),
    key=lambda entry: -len(entry[0]),
)

_SIMPLE = {
    "parti": Component.PARTI,
    "40-100": Component.FORTY_HUNDRED,
    "20-100": Component.TWENTY_HUNDRED,
    "ulti": Component.ULTI,
    "aces": Component.FOUR_ACES,
}
# Which combination of game words names which game ("szines" only confirms a suited durchmars).
_GAMES = {
    frozenset({"betli"}): Component.BETLI,
    frozenset({"open", "betli"}): Component.OPEN_BETLI,
    frozenset({"rebetli"}): Component.REBETLI,
    frozenset({"redurchmars"}): Component.REDURCHMARS,
    frozenset({"durchmars", "no-trump"}): Component.NO_TRUMP_DURCHMARS,
    frozenset({"durchmars", "no-trump", "open"}): Component.NO_TRUMP_OPEN_DURCHMARS,
    frozenset({"durchmars"}): Component.DURCHMARS,
    frozenset({"durchmars", "open"}): Component.OPEN_DURCHMARS,
}
_SILENT = {
    "100": SilentGame.HUNDRED,
    "aces": SilentGame.FOUR_ACES,
    "ulti": SilentGame.ULTI,
    "durchmars": SilentGame.DURCHMARS,
}


def _words(text: str) -> list[str]:
    """Meaning words of a name, in the order written; unknown words are an error."""
    if not isinstance(text, str) or not text.strip():
        raise ScoringError(f"expected a name, got {text!r}")
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    tokens = re.sub(r"[^a-z0-9]+", " ", plain).split()
    words, i = [], 0
    while i < len(tokens):
        for phrase, word in _VOCABULARY:
            if tuple(tokens[i : i + len(phrase)]) == phrase:
                words.append(word)
                i += len(phrase)
                break
        else:
            raise ScoringError(f"unknown word {tokens[i]!r} in {text!r}")
    repeated = sorted(w for w, n in Counter(words).items() if n > 1)
    if repeated:
        raise ScoringError(f"{text!r} says {', '.join(repeated)} more than once")
    return words


def _components(words: list[str], text: str) -> list[Component]:
    """Components named by the words; "red"/"suited" are qualifiers and are left to the caller."""
    found = [_SIMPLE[w] for w in words if w in _SIMPLE]
    game = {w for w in words if w in {"durchmars", "redurchmars", "open", "betli", "rebetli", "no-trump"}}
    if not game:
        return found
    if "betli" in game or "rebetli" in game or "redurchmars" in game:
        game.discard("no-trump")  # "színtelen betli" only repeats what betli already is
    if frozenset(game) in _GAMES:
        return [*found, _GAMES[frozenset(game)]]
    raise ScoringError(f"{text!r} is not a game: {' '.join(sorted(game))}")


def parse_bid(text: str, table: tuple[Bid, ...] = TABLE) -> Bid:
    """The table's bid for a name such as "piros 40-100 ulti" or "20-100 ulti terített durchmars"."""
    words = _words(text)
    if "100" in words:
        raise ScoringError(f"{text!r}: say 40-100 or 20-100")
    parts = _components(words, text)
    if not parts:
        raise ScoringError(f"{text!r} names no game")
    no_trump = any(c.no_trump for c in parts)
    if no_trump and len(parts) > 1:
        raise ScoringError(f"{text!r}: a no-trump game is bid on its own")
    if no_trump and ("red" in words or "suited" in words):
        raise ScoringError(f"{text!r}: a no-trump game has no trump suit")
    if Component.PARTI in parts and len(parts) > 1:
        raise ScoringError(f"{text!r}: passz is a bid of its own (the parti rides along by itself)")
    if Component.FORTY_HUNDRED in parts and Component.TWENTY_HUNDRED in parts:
        raise ScoringError(f"{text!r}: 40-100 and 20-100 cannot be bid together")
    if Component.FOUR_ACES in parts and {Component.DURCHMARS, Component.OPEN_DURCHMARS} & set(parts):
        raise ScoringError(f"{text!r}: four aces may not be combined with any durchmars (I.1 (2))")
    bid = bid_of(*parts, red="red" in words)
    if bid not in table:
        raise ScoringError(f"{text!r} is not in the table of games")
    return bid


def parse_component(text: str) -> Component:
    """One component of a bid, e.g. "parti", "négy ász", "terített durchmars", "no-trump durchmars"."""
    words = _words(text)
    if "red" in words or "100" in words:
        raise ScoringError(f"{text!r} is not a component of a bid")
    parts = _components([w for w in words if w != "suited"], text)
    if len(parts) != 1:
        raise ScoringError(f"{text!r} names {len(parts)} components, expected one")
    return parts[0]


def parse_silent_game(text: str) -> SilentGame:
    """A silent achievement: "100" (száz), "four aces" (négy ász), "ulti" or "durchmars"."""
    words = _words(text)
    if len(words) != 1 or words[0] not in _SILENT:
        raise ScoringError(f"{text!r} is not a silent achievement (100, four aces, ulti, durchmars)")
    return _SILENT[words[0]]
