"""Labels for the pairing engine's flags, signed numbers for score cards, contracts in the page's notation."""

from decimal import Decimal

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from bridge.services import notation
from teams.services import explanations

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
def explain(text):
    """A stored pairing explanation in the reader's language, with the teams' names."""
    return explanations.shown(text)


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


@register.filter
def contract(text):
    """A room's contract line in the page's notation: 4H N = -> 4♥ É = (bridge.services.notation)."""
    return notation.contract(str(text or ""))
