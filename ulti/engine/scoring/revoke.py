"""Penalties for irregularities (renonsz, I.6); they replace the normal settlement of the deal."""

from .deal import Deal, Phase
from .ledger import Transfer
from .stakes import lost_stake


def revoke_transfers(deal: Deal) -> list[Transfer]:
    revoke = deal.revoke
    offender = revoke.player
    if revoke.phase is Phase.DEAL:
        return []  # I.6 (1): the right player deals again, nobody pays
    if revoke.phase is Phase.BIDDING:
        # I.6 (2): double the bid to the innocent players; kontras are not said yet, so none count.
        # For a revealed trump suit the offender is the declarer, so the innocent are the defenders.
        units = 2 * deal.bid.value
        reason = f"{revoke.offence.value} irregularity in the bidding"
        return [Transfer(offender, p, units, reason) for p in deal.players if p != offender]
    # I.6 (3): the current bid with its kontras, a ulti counted as failed (its premium, kontras included).
    stake = {
        d: sum(lost_stake(c, deal.bid.value_of(c), deal.kontra_level(c, d)) for c in deal.bid.components)
        for d in deal.defenders
    }
    reason = "revoke in play"
    if offender == deal.declarer:
        return [Transfer(offender, d, stake[d], reason) for d in deal.defenders]
    # A defender pays the declarer double and his partner single. With a no-trump kontra the two stakes
    # differ, so "double" is read as both defenders' stakes and "single" as the partner's own.
    partner = next(d for d in deal.defenders if d != offender)
    return [
        Transfer(offender, deal.declarer, stake[offender] + stake[partner], reason),
        Transfer(offender, partner, stake[partner], reason),
    ]
