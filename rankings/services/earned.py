"""Masterpoints earned at one event, for its results pages: the current awards of the ledger, per person."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum

from ..models import Award


def masterpoints_of(event) -> dict[int, Decimal]:
    """person id -> masterpoints of the event's current award version; empty when the event awards none
    (not final yet, or a class without masterpoints)."""
    rows = (
        Award.objects.filter(event=event, is_current=True).values("person_id").annotate(total=Sum("amount"))
    )
    return {r["person_id"]: r["total"] for r in rows if r["total"]}


def shares(earned: dict[int, Decimal], person_ids) -> list[Decimal]:
    """The different amounts the given players earned, in their order (one for a pair that shares its award)."""
    out: list[Decimal] = []
    for person_id in person_ids:
        amount = earned.get(person_id)
        if amount is not None and amount not in out:
            out.append(amount)
    return out
