"""Refusing deals the rules do not allow, before any money is counted.

The engine trusts the recorded outcomes otherwise (it does not replay the cards): it only checks what
the record itself contradicts.
"""

from .components import CAN_BE_IMPOSSIBLE, Component, SilentGame
from .deal import KONTRA, REKONTRA, Deal, Offence, Phase, Side
from .errors import Player, ScoringError, gettext_noop
from .rulesets import RuleSet

# What a made durchmars decides along with it: every trick wins the 100 and the ulti's last trick.
DECIDED_BY_DURCHMARS = frozenset({Component.FORTY_HUNDRED, Component.TWENTY_HUNDRED, Component.ULTI})


def validate_deal(deal: Deal, rules: RuleSet) -> None:
    """Raise ScoringError naming the first thing wrong with the deal."""
    _check_players(deal)
    if deal.bid not in rules.table:
        raise ScoringError(
            gettext_noop("%(bid)s is not a game of the %(rules)s table"), bid=deal.bid, rules=rules.name
        )
    _check_kontra(deal)
    _check_impossible(deal)
    if deal.revoke is not None:
        _check_revoke(deal)
    else:
        _check_results(deal)
        _check_silent(deal, rules)


def _check_players(deal: Deal) -> None:
    players = deal.players
    if len(players) != 3 or len(set(players)) != 3 or not all(isinstance(p, str) and p for p in players):
        raise ScoringError(
            gettext_noop("a deal needs three different player names, got %(players)s"),
            players=tuple(Player(p) for p in players),
        )
    if deal.declarer not in players:
        raise ScoringError(
            gettext_noop("the declarer %(player)s is not one of the players %(players)s"),
            player=Player(deal.declarer),
            players=tuple(Player(p) for p in players),
        )


def _check_kontra(deal: Deal) -> None:
    for component, levels in deal.kontra.items():
        if component not in deal.bid.components:
            raise ScoringError(
                gettext_noop("kontra on %(part)s, which is not part of %(bid)s"), part=component, bid=deal.bid
            )
        for player, level in levels.items():
            if player == deal.declarer:
                raise ScoringError(
                    gettext_noop("kontra by the declarer %(player)s on %(part)s: only a defender doubles"),
                    player=Player(player),
                    part=component,
                )
            if player not in deal.defenders:
                raise ScoringError(
                    gettext_noop("kontra by %(player)s, who is not at the table"), player=Player(player)
                )
            if level not in (KONTRA, REKONTRA) or isinstance(level, bool):
                raise ScoringError(
                    gettext_noop("kontra level on %(part)s must be 1 (kontra) or 2 (rekontra)"),
                    part=component,
                )


def _check_impossible(deal: Deal) -> None:
    if not deal.impossible <= deal.bid.components:
        raise ScoringError(
            gettext_noop("impossible %(parts)s: not part of %(bid)s"),
            parts=frozenset(deal.impossible - deal.bid.components),
            bid=deal.bid,
        )
    if not deal.impossible <= CAN_BE_IMPOSSIBLE:
        raise ScoringError(
            gettext_noop("%(parts)s cannot be impossible; only 40-100, 20-100 and ulti can (I.4 (5))"),
            parts=frozenset(deal.impossible - CAN_BE_IMPOSSIBLE),
        )
    if deal.impossible_doubled:
        if not deal.impossible:
            raise ScoringError(gettext_noop("impossible_doubled is set but no component is impossible"))
        undoubled = frozenset(c for c in deal.impossible if not deal.kontra.get(c))
        if undoubled:
            raise ScoringError(
                gettext_noop("impossible %(parts)s doubled in the first round but no kontra recorded"),
                parts=undoubled,
            )


def _check_revoke(deal: Deal) -> None:
    revoke = deal.revoke
    if revoke.player not in deal.players:
        raise ScoringError(
            gettext_noop("revoke by %(player)s, who is not at the table"), player=Player(revoke.player)
        )
    if deal.won or deal.silent or deal.impossible:
        raise ScoringError(
            gettext_noop("a revoke replaces the results: give no won, silent or impossible with it")
        )
    if (revoke.phase is Phase.BIDDING) != (revoke.offence is not None):
        raise ScoringError(
            gettext_noop("a bidding-phase revoke needs its offence (talon, trump suit); other phases none")
        )
    if revoke.offence is Offence.TRUMP_SUIT:
        if revoke.player != deal.declarer:
            raise ScoringError(gettext_noop("revealing the trump suit is an offence of the declarer"))
        if deal.bid.red or deal.bid.no_trump:
            raise ScoringError(
                gettext_noop(
                    "only a non-red trump suit can be revealed: red is said aloud, no-trump has none"
                )
            )


def _check_results(deal: Deal) -> None:
    bid = deal.bid
    unknown = frozenset(deal.won) - bid.components
    if unknown:
        raise ScoringError(
            gettext_noop("result for %(parts)s, which is not part of %(bid)s"), parts=unknown, bid=bid
        )
    missing = bid.components - set(deal.won) - deal.impossible
    if missing:
        raise ScoringError(
            gettext_noop("no result for %(parts)s (%(bid)s is %(spoken)s)"),
            parts=frozenset(missing),
            bid=bid,
            spoken=bid.ordered,
        )
    if not all(isinstance(v, bool) for v in deal.won.values()):
        raise ScoringError(gettext_noop("each result must be true (the declarer made it) or false"))
    made_impossible = frozenset(c for c in deal.impossible if deal.won.get(c))
    if made_impossible:
        raise ScoringError(
            gettext_noop("%(parts)s is impossible, so it cannot be won"), parts=made_impossible
        )
    if deal.made_declared_durchmars:
        # Every trick to the declarer: all 90 card points beside the bid's 40 or 20 make the 100, and the
        # trump seven, held to the last trick (I.1 (2)), takes that trick.
        lost = frozenset(c for c in DECIDED_BY_DURCHMARS if deal.won.get(c) is False)
        if lost:
            raise ScoringError(
                gettext_noop(
                    "the declarer made the durchmars, so he took every trick: %(lost)s cannot be lost (I.1 (2))"
                ),
                "durchmars_lost",
                lost=lost,
            )


def _check_silent(deal: Deal, rules: RuleSet) -> None:
    bid = deal.bid
    if deal.silent and bid.no_trump:
        raise ScoringError(gettext_noop("silent achievements exist only in games with trumps"))
    seen = set()
    for silent in deal.silent:
        game = silent.game
        if game not in rules.silent_games:
            raise ScoringError(
                gettext_noop("silent %(game)s does not count under the %(rules)s rules"),
                game=game,
                rules=rules.name,
            )
        if game in seen:
            raise ScoringError(gettext_noop("silent %(game)s recorded twice"), game=game)
        seen.add(game)
        if game.declared_forms & bid.components:
            raise ScoringError(
                gettext_noop("%(bid)s already bids %(game)s: it cannot also be silent"), bid=bid, game=game
            )
        if not silent.won and game is not SilentGame.ULTI:
            raise ScoringError(
                gettext_noop("only a silent ulti can fail; record a silent %(game)s only when made"),
                game=game,
            )
        if silent.split and not (game is SilentGame.FOUR_ACES and silent.side is Side.DEFENDERS):
            raise ScoringError(gettext_noop("only the defenders' silent four aces can be split between them"))
        if not silent.trick and game is not SilentGame.HUNDRED:
            raise ScoringError(gettext_noop("only a silent 100 needs a trick (I.2 (4))"), "trick_not_hundred")
        if game is SilentGame.HUNDRED and deal.bids_durchmars:
            raise ScoringError(
                gettext_noop(
                    "announcing a 40 or 20 in a durchmars game is a revoke (I.6 (3)): record the revoke, not a "
                    "silent 100"
                ),
                "silent_100_in_durchmars",
            )
        if deal.made_declared_durchmars and silent.won and silent.side is Side.DEFENDERS:
            raise ScoringError(
                gettext_noop("the declarer made a durchmars: the defenders cannot make a silent %(game)s"),
                game=game,
            )
        if game is SilentGame.HUNDRED and Component.PARTI in bid.components:
            if not silent.trick:
                # A side without a trick has no card points: the parti is the other side's.
                if deal.won[Component.PARTI] == (silent.side is Side.DECLARER):
                    raise ScoringError(
                        gettext_noop(
                            "the side of the silent 100 took no trick, so it cannot have won the parti (I.2 (4))"
                        ),
                        "trickless_parti",
                    )
            elif deal.won[Component.PARTI] != (silent.side is Side.DECLARER):
                raise ScoringError(
                    gettext_noop("a silent 100 with a trick wins the parti for the same side (I.2 (4))"),
                    "hundred_parti",
                )
