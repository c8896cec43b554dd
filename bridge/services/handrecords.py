"""Hand records: every deal's double-dummy tricks and par, from endplay's DDS, computed once and stored.

DDS takes a noticeable fraction of a second per deal, so this runs in its own task after the standings
are written, only for deals it has not analysed yet; pages only read the stored rows.
"""

from django.db import transaction
from endplay.dds import calc_all_tables, par
from endplay.types import Deal, Denom, Player

from bridge.engine.scoring.contract import board_dealer, board_vulnerability

from ..models import HandRecord, PairSession
from . import dealing, versions

SEATS = "NESW"
STRAINS = ("NT", "S", "H", "D", "C")
_CHUNK = 10  # deals per DDS call, well within its batch limit


def analyse(deals: dict[int, str]) -> dict[int, dict]:
    """Board -> {"tricks": {seat: {strain: n}}, "par_score": NS score, "par_contracts": "4HW+1, ..."}."""
    boards = sorted(deals)
    out = {}
    denoms = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, "NT": Denom.nt}
    players = dict(zip(SEATS, (Player.north, Player.east, Player.south, Player.west), strict=True))
    for start in range(0, len(boards), _CHUNK):
        chunk = boards[start : start + _CHUNK]
        tables = calc_all_tables([Deal(deals[board]) for board in chunk])
        for board, table in zip(chunk, tables, strict=True):
            tricks = {
                seat: {strain: table[denoms[strain], players[seat]] for strain in STRAINS} for seat in SEATS
            }
            result = par(table, board, players[board_dealer(board)])
            contracts = [_contract_text(c) for c in result]
            out[board] = {
                "tricks": tricks,
                "par_score": int(result.score),
                "par_contracts": ", ".join(dict.fromkeys(contracts)),
            }
    return out


def _contract_text(contract) -> str:
    strain = {0: "S", 1: "H", 2: "D", 3: "C", 4: "NT"}[int(contract.denom)]
    doubled = "X" if int(contract.penalty) == 2 else ("XX" if int(contract.penalty) == 4 else "")
    declarer = SEATS[int(contract.declarer)]
    result = "=" if contract.result == 0 else f"{contract.result:+d}"
    return f"{contract.level}{strain}{doubled}{declarer}{result}"


def compute(session_id: int) -> int:
    """Analyse the deals of a session that have no hand record yet (or changed); returns how many."""
    session = PairSession.objects.select_related("announced").get(pk=session_id)
    deals = dealing.deals_of_session(session, versions.latest_version(session))
    stored = dict(HandRecord.objects.filter(session=session).values_list("board", "deal"))
    todo = {board: deal for board, deal in deals.items() if stored.get(board) != deal}
    analysed = analyse(todo) if todo else {}
    with transaction.atomic():
        HandRecord.objects.filter(session=session).exclude(board__in=deals.keys()).delete()
        for board, facts in analysed.items():
            HandRecord.objects.update_or_create(
                session=session,
                board=board,
                defaults={
                    "deal": todo[board],
                    "dealer": board_dealer(board),
                    "vulnerability": board_vulnerability(board),
                    **facts,
                },
            )
    return len(analysed)
