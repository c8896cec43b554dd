"""Computer dealing (VSz 21) in the BigDeal manner, and the statistics VSz 21 asks the deals to pass.

A set of deals comes from one secret 160-bit seed.  Board b of set s is the Fisher-Yates shuffle driven
by the byte stream HMAC-SHA256(seed, s | b | counter), counter = 0, 1, ...; every index is drawn by
rejection sampling, so each of the 52! orders - and so each deal - is equally likely.  Whoever holds the
seed can regenerate and verify the set; without it nothing about the deals can be learnt (VSz 21a), and
since the seed is fresh per set, a set is never repeated.  Boards are kept in the order generated (21b).

Statistics: hand patterns per seat against their exact probabilities, and the number of aces, kings,
queens and jacks each seat holds against the hypergeometric law, each by a chi-square test.  Bins are
pooled until every expected count is at least 5 (Cochran's rule).  The chi-square survival function is
computed here (regularised incomplete gamma), so no scipy is needed.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import struct
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from itertools import product

SEED_BYTES = 20  # 160 bits, as BigDeal
SEATS = "NESW"
SUITS = "SHDC"
RANKS = "AKQJT98765432"
HONOURS = "AKQJ"
# Card c (0..51): suit SUITS[c // 13], rank RANKS[c % 13].

_VULNERABILITY = ("None", "NS", "EW", "All", "NS", "EW", "All", "None",
                  "EW", "All", "None", "NS", "All", "None", "NS", "EW")  # fmt: skip


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def _seed_bytes(seed: bytes | str) -> bytes:
    if isinstance(seed, str):
        seed = bytes.fromhex(seed)
    if len(seed) < 16:
        raise ValueError("a dealing seed must have at least 128 bits (160 recommended)")
    return seed


def _byte_stream(seed: bytes, label: bytes) -> Iterator[int]:
    counter = 0
    while True:
        yield from hmac.new(seed, label + struct.pack(">Q", counter), hashlib.sha256).digest()
        counter += 1


def _uniform_below(stream: Iterator[int], bound: int) -> int:
    """Uniform integer in [0, bound): whole bytes, redrawn when they fall in the biased remainder."""
    width = max(1, ((bound - 1).bit_length() + 7) // 8)
    space = 1 << (8 * width)
    limit = space - space % bound
    while True:
        value = int.from_bytes(bytes(next(stream) for _ in range(width)), "big")
        if value < limit:
            return value % bound


def _label(*parts: str | int) -> bytes:
    # Length-prefixed so that no two (set id, board) combinations can produce the same message.
    out = b""
    for part in parts:
        data = str(part).encode()
        out += struct.pack(">I", len(data)) + data
    return out


def seeded_permutation(seed: bytes | str, label: str, n: int) -> list[int]:
    """A uniformly random permutation of range(n), reproducible from (seed, label)."""
    stream = _byte_stream(_seed_bytes(seed), _label("permutation", label))
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = _uniform_below(stream, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def board_dealer(board: int) -> str:
    return SEATS[(board - 1) % 4]


def board_vulnerability(board: int) -> str:
    return _VULNERABILITY[(board - 1) % 16]


def _hand_text(cards: Sequence[int]) -> str:
    suits = []
    for s in range(4):
        ranks = sorted(c % 13 for c in cards if c // 13 == s)
        suits.append("".join(RANKS[r] for r in ranks))
    return ".".join(suits)


def deal_cards(seed: bytes | str, set_id: str, board: int) -> tuple[tuple[int, ...], ...]:
    """The four hands (N, E, S, W) of one board as card numbers."""
    if board < 1:
        raise ValueError("boards are numbered from 1")
    stream = _byte_stream(_seed_bytes(seed), _label("deal", set_id, board))
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = _uniform_below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(tuple(sorted(deck[13 * h : 13 * h + 13])) for h in range(4))


def deal_board(seed: bytes | str, set_id: str, board: int) -> str:
    """One board as a PBN Deal tag value, North first: "N:AKQ.T98.765.432 ..."."""
    return "N:" + " ".join(_hand_text(hand) for hand in deal_cards(seed, set_id, board))


def deal_set(seed: bytes | str, n_boards: int, set_id: str) -> list[str]:
    """Boards 1..n_boards of the set, as PBN deal strings, in the order generated."""
    if n_boards < 1:
        raise ValueError("a set has at least one board")
    return [deal_board(seed, set_id, board) for board in range(1, n_boards + 1)]


def parse_pbn_deal(deal: str) -> dict[str, tuple[str, str, str, str]]:
    """Seat -> (spades, hearts, diamonds, clubs) from a PBN deal; checks it is a full 52-card deal."""
    first, _, rest = deal.strip().partition(":")
    if first not in SEATS or not rest:
        raise ValueError(f"not a PBN deal: {deal!r}")
    hands = rest.split()
    if len(hands) != 4:
        raise ValueError("a PBN deal has four hands")
    start = SEATS.index(first)
    seen: set[tuple[str, str]] = set()
    out: dict[str, tuple[str, str, str, str]] = {}
    for offset, hand in enumerate(hands):
        suits = hand.split(".")
        if len(suits) != 4:
            raise ValueError(f"hand {hand!r} does not have four suits")
        for suit, holding in zip(SUITS, suits, strict=True):
            for rank in holding:
                if rank not in RANKS or (suit, rank) in seen:
                    raise ValueError(f"bad or repeated card {suit}{rank}")
                seen.add((suit, rank))
        if sum(len(s) for s in suits) != 13:
            raise ValueError(f"hand {hand!r} does not hold 13 cards")
        out[SEATS[(start + offset) % 4]] = tuple(suits)  # type: ignore[assignment]
    return out


# --- statistics -------------------------------------------------------------------------------


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for a chi-square variable with df degrees of freedom."""
    if df < 1:
        raise ValueError("degrees of freedom must be positive")
    if statistic <= 0:
        return 1.0
    return _gamma_q(df / 2.0, statistic / 2.0)


def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x): series below a + 1, Lentz continued fraction above."""
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_prefix) * h)


def _pattern_probabilities() -> dict[str, float]:
    total = math.comb(52, 13)
    probabilities: dict[str, float] = {}
    for lengths in product(range(14), repeat=4):
        if sum(lengths) == 13:
            key = "-".join(str(n) for n in sorted(lengths, reverse=True))
            ways = math.prod(math.comb(13, n) for n in lengths)
            probabilities[key] = probabilities.get(key, 0.0) + ways / total
    return probabilities


PATTERN_PROBABILITIES: dict[str, float] = _pattern_probabilities()  # all 39 patterns, sum 1
HONOUR_COUNT_PROBABILITIES: dict[str, float] = {
    str(k): math.comb(4, k) * math.comb(48, 13 - k) / math.comb(52, 13) for k in range(5)
}


def hand_pattern(hand: Sequence[str]) -> str:
    """'5-3-3-2' from (spades, hearts, diamonds, clubs) holdings."""
    return "-".join(str(n) for n in sorted((len(s) for s in hand), reverse=True))


@dataclass(frozen=True)
class Bin:
    label: str
    observed: int
    expected: float


@dataclass(frozen=True)
class ChiSquareTest:
    name: str
    seat: str
    bins: tuple[Bin, ...]
    statistic: float
    df: int
    p_value: float
    applicable: bool  # False when too few deals give fewer than two bins of expected count 5


@dataclass(frozen=True)
class DealStatistics:
    deals: int
    alpha: float
    tests: tuple[ChiSquareTest, ...]
    passed: bool  # every test's p-value >= alpha / number of tests (Bonferroni: alpha family-wise)

    def as_dict(self) -> dict:
        return asdict(self)


MIN_EXPECTED = 5.0


def chi_square_test(
    name: str, seat: str, observed: Counter, probabilities: dict[str, float], n: int
) -> ChiSquareTest:
    """Goodness of fit with rare categories pooled into 'other' until every expected count is >= 5."""
    unknown = set(observed) - set(probabilities)
    if unknown:
        raise ValueError(f"impossible categories observed: {sorted(unknown)}")
    ordered = sorted(probabilities, key=lambda k: -probabilities[k])
    kept: list[Bin] = []
    pooled_labels: list[str] = []
    for label in ordered:
        expected = probabilities[label] * n
        if expected >= MIN_EXPECTED and not pooled_labels:
            kept.append(Bin(label, observed.get(label, 0), expected))
        else:
            pooled_labels.append(label)
    if pooled_labels:
        other_obs = sum(observed.get(label, 0) for label in pooled_labels)
        other_exp = sum(probabilities[label] * n for label in pooled_labels)
        if other_exp < MIN_EXPECTED and kept:
            last = kept.pop()
            pooled_labels.insert(0, last.label)
            other_obs += last.observed
            other_exp += last.expected
        kept.append(Bin("other: " + ", ".join(pooled_labels), other_obs, other_exp))
    if len(kept) < 2:
        return ChiSquareTest(name, seat, tuple(kept), 0.0, 0, 1.0, False)
    statistic = sum((b.observed - b.expected) ** 2 / b.expected for b in kept)
    df = len(kept) - 1
    return ChiSquareTest(name, seat, tuple(kept), statistic, df, chi_square_sf(statistic, df), True)


def deal_statistics(deals: Sequence[str], alpha: float = 0.01) -> DealStatistics:
    """Hand-pattern and honour-distribution tests per seat for a list of PBN deals."""
    if not deals:
        raise ValueError("no deals to test")
    parsed = [parse_pbn_deal(deal) for deal in deals]
    n = len(parsed)
    tests: list[ChiSquareTest] = []
    for seat in SEATS:
        patterns = Counter(hand_pattern(hands[seat]) for hands in parsed)
        tests.append(chi_square_test("hand pattern", seat, patterns, PATTERN_PROBABILITIES, n))
        for honour in HONOURS:
            held = Counter(str(sum(honour in suit for suit in hands[seat])) for hands in parsed)
            tests.append(chi_square_test(f"{honour} held", seat, held, HONOUR_COUNT_PROBABILITIES, n))
    applicable = [t for t in tests if t.applicable]
    threshold = alpha / max(1, len(applicable))
    passed = all(t.p_value >= threshold for t in applicable)
    return DealStatistics(n, alpha, tuple(tests), passed)
