"""Settling a deal: every component won or lost on its own, the declarer against each defender."""

from collections.abc import Iterator

from .components import Component
from .deal import Deal
from .ledger import Settlement, Transfer, between
from .revoke import revoke_transfers
from .rulesets import RuleSet
from .silent import silent_100_replaces_parti, silent_transfers
from .stakes import lost_stake, won_stake
from .validation import validate_deal

_LEVEL_NAMES = ("", " (kontra)", " (rekontra)")


def settle(deal: Deal, rules: RuleSet) -> Settlement:
    """The payments of one deal; raises ScoringError if the rules do not allow the deal as recorded."""
    validate_deal(deal, rules)
    if deal.revoke is not None:
        transfers = revoke_transfers(deal)
    else:
        transfers = [*_component_transfers(deal), *silent_transfers(deal)]
    return Settlement(deal.players, tuple(t for t in transfers if t.units))


def _component_transfers(deal: Deal) -> Iterator[Transfer]:
    skip_parti = silent_100_replaces_parti(deal)
    for component in deal.bid.ordered:
        if component is Component.PARTI and skip_parti:
            continue
        value = deal.bid.value_of(component)
        for defender in deal.defenders:
            level = deal.kontra_level(component, defender)
            if component in deal.impossible:
                # I.4 (5): unless doubled in the first round the declarer pays only the base value.
                units = lost_stake(component, value, level) if deal.impossible_doubled else value
                yield between(deal.declarer, defender, units, False, f"{component.label} impossible")
            else:
                won = deal.won[component]
                units = won_stake(value, level) if won else lost_stake(component, value, level)
                reason = f"{component.label} {'won' if won else 'lost'}{_LEVEL_NAMES[level]}"
                yield between(deal.declarer, defender, units, won, reason)
