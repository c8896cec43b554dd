"""Hand records: every deal's double-dummy tricks and par, from endplay's DDS, computed once and stored.

DDS takes a noticeable fraction of a second per deal, so this runs in its own task after the standings
are written, only for deals it has not analysed yet; pages only read the stored rows.
"""

import datetime
import logging

from django.db import transaction
from django.utils import timezone
from endplay.dds import calc_all_tables, par
from endplay.types import Deal, Denom, Player

from bridge.engine.scoring.contract import board_dealer, board_vulnerability

from ..models import HandRecord, PairSession
from . import dealing, versions

log = logging.getLogger(__name__)
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


# The beat looks back this far: a session started earlier had its hand records computed by an earlier tick.
DUE_HORIZON = datetime.timedelta(days=3)


def compute_due(now=None) -> dict[int, int]:
    """The beat task's service: hand records of every session whose start has passed, whatever else runs.

    Starts due on the clock are recorded first (the same idempotent step as `dealing.record_due_starts`), then
    each session started within `DUE_HORIZON` whose open deals are not all analysed is computed; `compute`
    skips deals already stored, so a second run (or a recompute's run meanwhile) changes nothing.
    Returns session id -> deals analysed."""
    now = now or timezone.now()
    dealing.record_due_starts(now)
    started = PairSession.objects.filter(start__at__lte=now, start__at__gte=now - DUE_HORIZON).order_by("pk")
    done = {}
    for session_id in started.values_list("pk", flat=True):
        try:
            analysed = compute(session_id)
        except Exception:  # one session's bad deal must not keep the others' hand records back
            log.exception("hand records of session %s failed", session_id)
            continue
        if analysed:
            done[session_id] = analysed
    return done
