"""Refusing deals the rules do not allow, before any money is counted.

The engine trusts the recorded outcomes otherwise (it does not replay the cards): it only checks what
the record itself contradicts.
"""

from .components import CAN_BE_IMPOSSIBLE, Component, SilentGame
from .deal import KONTRA, REKONTRA, Deal, Offence, Phase, Side
from .errors import ScoringError
from .rulesets import RuleSet

# What a made durchmars decides along with it: every trick wins the 100 and the ulti's last trick.
DECIDED_BY_DURCHMARS = frozenset({Component.FORTY_HUNDRED, Component.TWENTY_HUNDRED, Component.ULTI})


def validate_deal(deal: Deal, rules: RuleSet) -> None:
    """Raise ScoringError naming the first thing wrong with the deal."""
    _check_players(deal)
    if deal.bid not in rules.table:
        raise ScoringError(f"{deal.bid.name!r} is not a game of the {rules.name} table")
    _check_kontra(deal)
    _check_impossible(deal)
    if deal.revoke is not None:
        _check_revoke(deal)
    else:
        _check_results(deal)
        _check_silent(deal, rules)


def _labels(components) -> str:
    return ", ".join(sorted(c.label for c in components))


def _check_players(deal: Deal) -> None:
    players = deal.players
    if len(players) != 3 or len(set(players)) != 3 or not all(isinstance(p, str) and p for p in players):
        raise ScoringError(f"a deal needs three different player names, got {list(players)!r}")
    if deal.declarer not in players:
        raise ScoringError(f"the declarer {deal.declarer!r} is not one of the players {list(players)!r}")


def _check_kontra(deal: Deal) -> None:
    for component, levels in deal.kontra.items():
        if component not in deal.bid.components:
            raise ScoringError(f"kontra on {component.label}, which is not part of {deal.bid.name!r}")
        for player, level in levels.items():
            if player == deal.declarer:
                raise ScoringError(f"kontra by the declarer {player!r}: only a defender doubles")
            if player not in deal.defenders:
                raise ScoringError(f"kontra by {player!r}, who is not at the table")
            if level not in (KONTRA, REKONTRA) or isinstance(level, bool):
                raise ScoringError(f"kontra level on {component.label} must be 1 (kontra) or 2 (rekontra)")


def _check_impossible(deal: Deal) -> None:
    if not deal.impossible <= deal.bid.components:
        extra = _labels(deal.impossible - deal.bid.components)
        raise ScoringError(f"impossible {extra}: not part of {deal.bid.name!r}")
    if not deal.impossible <= CAN_BE_IMPOSSIBLE:
        extra = _labels(deal.impossible - CAN_BE_IMPOSSIBLE)
        raise ScoringError(f"{extra} cannot be impossible; only 40-100, 20-100 and ulti can (I.4 (5))")
    if deal.impossible_doubled:
        if not deal.impossible:
            raise ScoringError("impossible_doubled is set but no component is impossible")
        undoubled = {c for c in deal.impossible if not deal.kontra.get(c)}
        if undoubled:
            raise ScoringError(
                f"impossible {_labels(undoubled)} doubled in the first round but no kontra recorded"
            )


def _check_revoke(deal: Deal) -> None:
    revoke = deal.revoke
    if revoke.player not in deal.players:
        raise ScoringError(f"revoke by {revoke.player!r}, who is not at the table")
    if deal.won or deal.silent or deal.impossible:
        raise ScoringError("a revoke replaces the results: give no won, silent or impossible with it")
    if (revoke.phase is Phase.BIDDING) != (revoke.offence is not None):
        raise ScoringError("a bidding-phase revoke needs its offence (talon, trump suit); other phases none")
    if revoke.offence is Offence.TRUMP_SUIT:
        if revoke.player != deal.declarer:
            raise ScoringError("revealing the trump suit is an offence of the declarer")
        if deal.bid.red or deal.bid.no_trump:
            raise ScoringError(
                "only a non-red trump suit can be revealed: red is said aloud, no-trump has none"
            )


def _check_results(deal: Deal) -> None:
    bid = deal.bid
    unknown = set(deal.won) - bid.components
    if unknown:
        raise ScoringError(f"result for {_labels(unknown)}, which is not part of {bid.name!r}")
    missing = bid.components - set(deal.won) - deal.impossible
    if missing:
        parts = " + ".join(c.label for c in bid.ordered)
        raise ScoringError(f"no result for {_labels(missing)} ({bid.name!r} is {parts})")
    if not all(isinstance(v, bool) for v in deal.won.values()):
        raise ScoringError("each result must be true (the declarer made it) or false")
    made_impossible = {c for c in deal.impossible if deal.won.get(c)}
    if made_impossible:
        raise ScoringError(f"{_labels(made_impossible)} is impossible, so it cannot be won")
    if deal.made_declared_durchmars:
        # Every trick to the declarer: all 90 card points beside the bid's 40 or 20 make the 100, and the
        # trump seven, held to the last trick (I.1 (2)), takes that trick.
        lost = {c for c in DECIDED_BY_DURCHMARS if deal.won.get(c) is False}
        if lost:
            raise ScoringError(
                f"the declarer made the durchmars, so took every trick: {_labels(lost)} cannot be lost",
                "durchmars_lost",
                lost=_labels(lost),
            )


def _check_silent(deal: Deal, rules: RuleSet) -> None:
    bid = deal.bid
    if deal.silent and bid.no_trump:
        raise ScoringError("silent achievements exist only in games with trumps")
    seen = set()
    for silent in deal.silent:
        game = silent.game
        if game not in rules.silent_games:
            raise ScoringError(f"silent {game.label} does not count under the {rules.name} rules")
        if game in seen:
            raise ScoringError(f"silent {game.label} recorded twice")
        seen.add(game)
        if game.declared_forms & bid.components:
            raise ScoringError(f"{bid.name!r} already bids {game.label}: it cannot also be silent")
        if not silent.won and game is not SilentGame.ULTI:
            raise ScoringError(f"only a silent ulti can fail; record a silent {game.label} only when made")
        if silent.split and not (game is SilentGame.FOUR_ACES and silent.side is Side.DEFENDERS):
            raise ScoringError("only the defenders' silent four aces can be split between them")
        if not silent.trick and game is not SilentGame.HUNDRED:
            raise ScoringError(
                "only a silent 100 needs a trick; record the others only when they count", "trick_not_hundred"
            )
        if game is SilentGame.HUNDRED and deal.bids_durchmars:
            raise ScoringError(
                "announcing a 40 or 20 in a durchmars game is a revoke (I.6 (3)): "
                "record the revoke, not a silent 100",
                "silent_100_in_durchmars",
            )
        if deal.made_declared_durchmars and silent.won and silent.side is Side.DEFENDERS:
            raise ScoringError(
                f"the declarer made a durchmars: the defenders cannot make a silent {game.label}"
            )
        if game is SilentGame.HUNDRED and Component.PARTI in bid.components:
            if not silent.trick:
                # A side without a trick has no card points: the parti is the other side's.
                if deal.won[Component.PARTI] == (silent.side is Side.DECLARER):
                    raise ScoringError(
                        "the side of the silent 100 took no trick, so it cannot have won the parti",
                        "trickless_parti",
                    )
            elif deal.won[Component.PARTI] != (silent.side is Side.DECLARER):
                raise ScoringError("a silent 100 always wins the parti for the same side", "hundred_parti")
