"""`{% load bridge_notation %}`: `{{ row.contract|contract:row.declarer }}`, `{{ hand.par_contracts|par }}`,
`{{ "N"|seat }}`, `{{ "NS"|side }}`, `{{ "NT"|strain }}`, `{{ row.lead|lead }}` in the page's language."""

from django import template

from bridge.services import notation

register = template.Library()


@register.filter
def contract(text, declarer=""):
    return notation.contract(str(text or ""), str(declarer or ""))


@register.filter
def par(text):
    return notation.par(str(text or ""))


@register.filter
def seat(code):
    return notation.seat(str(code or ""))


@register.filter
def side(code):
    return notation.side(str(code or ""))


@register.filter
def strain(letter):
    return notation.strain(str(letter or ""))


@register.filter
def lead(card):
    return notation.lead(str(card or ""))


@register.filter
def seat_names(seat) -> str:
    """A seated pair as the pages name it: its players ("A – B"), or the pair's own name without them.
    A filter, not an include: a live standings fragment names 200 pairs on every re-render."""
    pair = seat.pair
    players = [str(player) for player in (pair.player1, pair.player2) if player]
    return " – ".join(players) if players else pair.name
