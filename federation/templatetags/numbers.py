"""`{% load numbers %}`: numbers in the page's language, whatever type they arrive as (a Decimal, a float,
or the string a JSON column kept): `{{ row.total|dec:2 }}` -> "7,00" on Hungarian pages, "7.00" on English
ones; `{{ row.percentage|pct }}` -> "58,33%" / "58.33%". Empty values (None, "") stay empty."""

from decimal import Decimal, InvalidOperation

from django import template
from django.utils.formats import number_format

register = template.Library()


def _decimal(value):
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        return Decimal(str(value).strip().replace(",", "."))
    except InvalidOperation:
        return None


@register.filter
def dec(value, places=None):
    """The number with the language's decimal mark; `places` fixes the digits after it."""
    number = _decimal(value)
    if number is None:
        return "" if value is None else value
    places = None if places in (None, "") else int(places)
    return number_format(number, decimal_pos=places, use_l10n=True)


@register.filter
def pct(value, places=2):
    """A percentage: 58.333 -> "58,33%" (Hungarian) / "58.33%" (English)."""
    shown = dec(value, places)
    return f"{shown}%" if shown not in ("", None) and _decimal(value) is not None else shown
