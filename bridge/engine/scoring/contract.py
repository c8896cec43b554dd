"""Contract scores (Law 77), board dealer and vulnerability, and the set of scores a board can produce.

Every score here is from North-South's point of view unless a name says otherwise: that is how travellers,
PBN ScoreTables and matchpoint comparisons all see a board.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

SEATS = ("N", "E", "S", "W")
STRAINS = ("C", "D", "H", "S", "NT")
NS_SEATS = frozenset("NS")

# Vulnerability of board 1..16; the cycle repeats every 16 boards.
_VULNERABILITY_CYCLE = (
    "None", "NS", "EW", "All", "NS", "EW", "All", "None",
    "EW", "All", "None", "NS", "All", "None", "NS", "EW",
)  # fmt: skip


@dataclass(frozen=True)
class Contract:
    """A final contract; level 0 means the board was passed out."""

    level: int
    strain: str | None = None
    doubled: int = 0  # 0 undoubled, 1 doubled, 2 redoubled

    @property
    def passed_out(self) -> bool:
        return self.level == 0

    def __str__(self) -> str:
        if self.passed_out:
            return "Pass"
        return f"{self.level}{self.strain}{'X' * self.doubled}"


def board_dealer(board: int) -> str:
    """Dealer of a board: N deals board 1, then clockwise."""
    _check_board(board)
    return SEATS[(board - 1) % 4]


def board_vulnerability(board: int) -> str:
    """'None', 'NS', 'EW' or 'All' for a board by the standard 16-board cycle."""
    _check_board(board)
    return _VULNERABILITY_CYCLE[(board - 1) % 16]


def vulnerable_sides(vulnerability: str) -> tuple[bool, bool]:
    """(NS vulnerable, EW vulnerable) for a PBN-style vulnerability word."""
    word = vulnerability.strip().lower()
    if word in ("none", "love", "-", ""):
        return False, False
    if word == "ns":
        return True, False
    if word == "ew":
        return False, True
    if word in ("all", "both"):
        return True, True
    raise ValueError(f"unknown vulnerability {vulnerability!r}")


def _check_board(board: int) -> None:
    if board < 1:
        raise ValueError(f"board numbers start at 1, not {board}")


# Strain as typed: English letters (C D H S NT, N), suit symbols, and the Hungarian letters clubs write
# (T treff, K káró, KŐ/KO kőr, P pikk, SZA/SZ/SZAN szan adu); none of them collides with another.
_STRAIN_WORDS = {
    "C": "C", "D": "D", "H": "H", "S": "S", "NT": "NT", "N": "NT",
    "♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S",
    "T": "C", "K": "D", "KŐ": "H", "KO": "H", "P": "S", "SZA": "NT", "SZ": "NT", "SZAN": "NT",
}  # fmt: skip
_STRAIN_ALTERNATIVES = "|".join(sorted(map(re.escape, _STRAIN_WORDS), key=len, reverse=True))
_CONTRACT_RE = re.compile(rf"^([1-7])\s*({_STRAIN_ALTERNATIVES})\s*(X{{0,2}})$")
_PASSES = ("PASS", "AP", "P", "PASSED", "ALL PASS", "PASSZ", "PASSZOLT")
# Seats as typed: N E S W, the Hungarian É K D Ny, and the words in either language.
_SEAT_WORDS = {
    "N": "N", "E": "E", "S": "S", "W": "W",
    "É": "N", "K": "E", "D": "S", "NY": "W",
    "NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W",
    "ÉSZAK": "N", "KELET": "E", "DÉL": "S", "NYUGAT": "W",
}  # fmt: skip


@lru_cache(maxsize=4096)  # a session's file names a few dozen contracts thousands of times
def parse_contract(text: str) -> Contract:
    """Parse '3NTX', '4S', '7NTXX', '2HX', 'PASS', 'AP' (all pass), and the Hungarian forms '4♠', '4P'
    (pikk), '3SZA' (szan adu), '2KŐ' (kőr), 'passz'; the strain 'N' is read as NT."""
    cleaned = text.strip().upper().replace("*", "X")
    if cleaned in _PASSES:
        return Contract(0)
    match = _CONTRACT_RE.match(cleaned)
    if not match:
        raise ValueError(f"not a contract: {text!r}")
    level, strain, doubles = match.groups()
    return Contract(int(level), _STRAIN_WORDS[strain], len(doubles))


def parse_seat(text: str | None) -> str:
    """'N', 'e', 'É', 'Ny', 'Kelet' -> 'N', 'E', 'N', 'W', 'E'; ValueError for anything else."""
    seat = _SEAT_WORDS.get((text or "").strip().upper())
    if seat is None:
        raise ValueError(f"not a seat: {text!r}")
    return seat


def parse_tricks(text: str, level: int) -> int:
    """Tricks taken by declarer from '9' (tricks) or a result relative to the contract: '=', '+1', '-2'."""
    cleaned = text.strip()
    if cleaned == "=":
        return level + 6
    if cleaned[:1] in "+-" and cleaned[1:].isdigit():
        tricks = level + 6 + int(cleaned)
    elif cleaned.isdigit():
        tricks = int(cleaned)
    else:
        raise ValueError(f"not a result: {text!r}")
    if not 0 <= tricks <= 13:
        raise ValueError(f"result {text!r} gives {tricks} tricks; declarer takes 0 to 13")
    return tricks


def declarer_score(level: int, strain: str, doubled: int, vulnerable: bool, tricks: int) -> int:
    """Score of the declaring side (negative when it goes down), Law 77."""
    if not 1 <= level <= 7 or strain not in STRAINS or doubled not in (0, 1, 2) or not 0 <= tricks <= 13:
        raise ValueError(f"impossible contract or result: {level}{strain} x{doubled}, {tricks} tricks")
    needed = level + 6
    if tricks < needed:
        return -_undertrick_penalty(needed - tricks, doubled, vulnerable)

    multiplier = 2**doubled
    first_trick, other_tricks = (40, 30) if strain == "NT" else ((20, 20) if strain in "CD" else (30, 30))
    trick_score = (first_trick + other_tricks * (level - 1)) * multiplier

    score = trick_score
    score += (500 if vulnerable else 300) if trick_score >= 100 else 50
    if level == 6:
        score += 750 if vulnerable else 500
    elif level == 7:
        score += 1500 if vulnerable else 1000
    score += 50 * doubled  # the "insult": 50 for making a doubled, 100 for a redoubled contract

    overtricks = tricks - needed
    if doubled:
        score += overtricks * (200 if vulnerable else 100) * doubled
    else:
        score += overtricks * other_tricks
    return score


def _undertrick_penalty(down: int, doubled: int, vulnerable: bool) -> int:
    if not doubled:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        penalty = 200 + 300 * (down - 1)
    else:
        # Non-vulnerable doubled: 100, then 200 for the 2nd and 3rd, then 300 from the 4th undertrick.
        penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return penalty * doubled


def contract_score(
    contract: Contract | str, declarer: str | None, tricks: int, vul_ns: bool, vul_ew: bool
) -> int:
    """Score of a contract and result from NS's point of view (0 for a passed-out board)."""
    if isinstance(contract, str):
        contract = parse_contract(contract)
    if contract.passed_out:
        return 0
    try:
        seat = parse_seat(declarer)
    except ValueError:
        raise ValueError(f"declarer must be one of N, E, S, W, not {declarer!r}") from None
    declaring_ns = seat in NS_SEATS
    vulnerable = vul_ns if declaring_ns else vul_ew
    score = declarer_score(contract.level, contract.strain, contract.doubled, vulnerable, tricks)
    return score if declaring_ns else -score


def score_entry(
    contract: str, declarer: str | None, result: str, board: int, vulnerability: str | None = None
) -> int:
    """Score a traveller entry given without a score: contract text, declarer seat and result text.

    The vulnerability comes from the board number unless given (a PBN Vulnerable tag may override it).
    """
    parsed = parse_contract(contract)
    vul_ns, vul_ew = vulnerable_sides(vulnerability or board_vulnerability(board))
    if parsed.passed_out:
        return 0
    return contract_score(parsed, declarer, parse_tricks(result, parsed.level), vul_ns, vul_ew)


@lru_cache(maxsize=4)
def possible_scores(vul_ns: bool, vul_ew: bool) -> frozenset[int]:
    """Every NS score any contract and result can produce under this vulnerability."""
    scores = {0}
    for vulnerable, sign in ((vul_ns, 1), (vul_ew, -1)):
        for level in range(1, 8):
            for strain in STRAINS:
                for doubled in (0, 1, 2):
                    for tricks in range(14):
                        scores.add(sign * declarer_score(level, strain, doubled, vulnerable, tricks))
    return frozenset(scores)


def is_possible_score(score: int, vul_ns: bool, vul_ew: bool) -> bool:
    """True if some contract and result give this NS score; used to refuse mistyped entries."""
    return score in possible_scores(bool(vul_ns), bool(vul_ew))
