"""Labels for the pairing engine's flags, and signed numbers for score cards."""

from decimal import Decimal

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

register = template.Library()

FLAG_LABELS = {
    "bye": _("bye"),
    "bye_moved": _("bye moved up"),
    "repeat_bye": _("second bye"),
    "rematch_avoided": _("rematch avoided"),
    "pulled_up": _("pulled up"),
    "rematch": _("rematch"),
    "seeded": _("seeded"),
    "drawn": _("drawn"),
    "rematch_unavoidable": _("rematch unavoidable"),
    "matching_fallback": _("decided by matching"),
    "hand_edit": _("edited by hand"),
}
WARNING_FLAGS = {"rematch", "rematch_unavoidable", "repeat_bye", "hand_edit"}


@register.filter
def flag_label(flag):
    return FLAG_LABELS.get(flag, flag)


@register.filter
def flag_class(flag):
    return "text-bg-warning" if flag in WARNING_FLAGS else "text-bg-light border"


def _number(value) -> str:
    return number_format(value, use_l10n=True)


@register.filter
def signed(value):
    """+12, -3, +1,46 (localised; a gain shows its plus sign)."""
    if value is None or value == "":
        return ""
    return f"+{_number(value)}" if value > 0 else _number(value)


@register.filter
def trim_zero(value):
    """12.00 -> 12, 7.50 -> 7,5 (localised): IMPs are usually whole."""
    if value is None or value == "":
        return ""
    value = Decimal(value)
    return _number(value.to_integral() if value == value.to_integral() else value.normalize())


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@register.filter
def contract(text):
    """Suit letters as symbols, hearts and diamonds in red: 4H N = -> 4♥ N = (the rest escaped as is)."""
    if not text or len(text) < 2 or not text[0].isdigit() or text[1] not in SUIT_SYMBOLS:
        return text
    colour = "text-danger" if text[1] in "HD" else ""
    return format_html('{}<span class="{}">{}</span>{}', text[0], colour, SUIT_SYMBOLS[text[1]], text[2:])
