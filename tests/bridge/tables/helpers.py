"""What the table entry tests share: a phone's result (North) and its answer (East)."""

from bridge.models import TableEntry
from bridge.services import table_entry

from .conftest import key

Kind = TableEntry.Kind


def enter(code, board=None, *, based_on=None, k=None, **values):
    now = table_entry.current_round(code)
    fields = {"contract": "4S", "declarer": "N", "lead": "HK", "result": "="} | values
    return table_entry.send(
        code,
        key=k or key(),
        kind=Kind.RESULT,
        round=now.round,
        board=board or now.boards[0].board,
        ns=now.ns.pk,
        ew=now.ew.pk,
        based_on=based_on,
        **fields,
    )


def answer(code, entry, kind=Kind.CONFIRM, k=None):
    return table_entry.send(
        code,
        key=k or key(),
        kind=kind,
        round=entry.round,
        board=entry.board,
        ns=entry.ns_id,
        ew=entry.ew_id,
        based_on=entry.pk,
    )
