"""Plausible results for the demo: real computer deals (bridge.engine.dealing), a contract from the points each
side holds, and a trick count nudged by the two teams' strengths. Deterministic from its inputs."""

import random

from bridge.engine.dealing import deal_set, parse_pbn_deal
from bridge.engine.scoring.contract import board_vulnerability, contract_score, vulnerable_sides

POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}
SUITS = ("S", "H", "D", "C")


def _hcp(hand) -> int:
    return sum(POINTS.get(card, 0) for suit in hand for card in suit)


def _contract(deal: str):
    """(declarer seat, level, strain) the stronger side bids, or None when it is passed out."""
    hands = parse_pbn_deal(deal)
    ns, ew = _hcp(hands["N"]) + _hcp(hands["S"]), _hcp(hands["E"]) + _hcp(hands["W"])
    side, points = (("N", "S"), ns) if ns >= ew else (("E", "W"), ew)
    if points < 21:
        return None
    lengths = [len(hands[side[0]][i]) + len(hands[side[1]][i]) for i in range(4)]
    best = max(range(4), key=lambda i: (lengths[i], -i))
    strain = SUITS[best] if lengths[best] >= 8 else "NT"
    if points >= 33:
        level = 6
    elif points >= 25:
        level = 3 if strain == "NT" else (4 if strain in ("S", "H") else 5)
    else:
        level = 2 if strain != "NT" else 1
    declarer = max(side, key=lambda seat: (_hcp(hands[seat]), seat))
    return declarer, level, strain


def play_room(deal: str, board: int, rng: random.Random, edge: float):
    """(contract text as the CSV/PBN would say it, declarer, tricks, NS score); `edge` > 0 favours NS."""
    found = _contract(deal)
    if found is None:
        return "PASS", "", None, 0
    declarer, level, strain = found
    declaring_ns = declarer in "NS"
    skill = edge if declaring_ns else -edge
    tricks = level + 6 + round(rng.gauss(skill, 0.9))
    tricks = max(0, min(13, tricks))
    vul_ns, vul_ew = vulnerable_sides(board_vulnerability(board))
    score = contract_score(f"{level}{strain}", declarer, tricks, vul_ns, vul_ew)
    return f"{level}{strain}", declarer, tricks, score


def boards_of_round(seed_hex: str, round_no: int, boards: int, first: int = 1) -> list[tuple[int, str]]:
    deals = deal_set(seed_hex, boards, f"demo-round-{round_no}")
    return [(first + i, deal) for i, deal in enumerate(deals)]


def play_match(deals, home_strength: float, away_strength: float, rng: random.Random):
    """Rows (board, room, contract, declarer, tricks, ns score) for both rooms of a match."""
    edge = (home_strength - away_strength) / 2
    rows = []
    for board, deal in deals:
        rows.append((board, "open", *play_room(deal, board, rng, edge)))  # home NS
        rows.append((board, "closed", *play_room(deal, board, rng, -edge)))  # away NS
    return rows


def as_csv(rows) -> bytes:
    lines = ["board,room,contract,declarer,result"]
    for board, room, contract, declarer, tricks, _score in rows:
        lines.append(f"{board},{room},{contract},{declarer},{'' if tricks is None else tricks}")
    return ("\n".join(lines) + "\n").encode()


def as_pbn(rows, deals, event_title: str) -> bytes:
    deal_of = dict(deals)
    out = ["% PBN 2.1", "% bemutató csapatmérkőzés", ""]
    for board, room, contract, declarer, tricks, _score in rows:
        out += [
            f'[Event "{event_title}"]',
            f'[Board "{board}"]',
            f'[Room "{room.capitalize()}"]',
            f'[Deal "{deal_of[board]}"]',
            f'[Vulnerable "{board_vulnerability(board)}"]',
            f'[Contract "{"Pass" if contract == "PASS" else contract}"]',
            f'[Declarer "{declarer or "-"}"]',
            f'[Result "{"" if tricks is None else tricks}"]',
            "",
        ]
    return "\n".join(out).encode()
