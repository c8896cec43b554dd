"""Payments for silent (unbid) achievements (I.2, I.3 (4), I.5)."""

from collections.abc import Iterator

from .components import Component, SilentGame
from .deal import Deal, Side
from .ledger import Transfer, between
from .stakes import SILENT_ULTI_FAILURE_MULTIPLIER


def silent_100_replaces_parti(deal: Deal) -> bool:
    """I.3 (4): beside a silent 100 the parti is counted only if it was doubled.

    So a silent 100 is worth 2 units with an undoubled parti, 2 + 2 with kontra, 2 + 4 with rekontra.
    """
    return (
        Component.PARTI in deal.bid.components
        and any(s.game is SilentGame.HUNDRED and s.counts for s in deal.silent)
        and deal.kontra_level(Component.PARTI, deal.defenders[0]) == 0
    )


def silent_transfers(deal: Deal) -> Iterator[Transfer]:
    for silent in deal.silent:
        if not silent.counts:
            continue  # I.2 (3): only one defender holding all four aces counts; I.2 (4): a 100 needs a trick
        if silent.game is SilentGame.FOUR_ACES and deal.made_declared_durchmars:
            continue  # I.2 (3): not counted when a declared durchmars is made
        value = silent.game.units * (2 if deal.bid.red else 1)
        units = value if silent.won else value * SILENT_ULTI_FAILURE_MULTIPLIER
        # The defenders win or lose a silent achievement together, each against the declarer.
        declarer_wins = (silent.side is Side.DECLARER) == silent.won
        reason = f"silent {silent.game.label} {'made' if silent.won else 'failed'} by the {silent.side.value}"
        for defender in deal.defenders:
            yield between(deal.declarer, defender, units, declarer_wins, reason)
