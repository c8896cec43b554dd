"""`{{ amount|ft }}`: integer forints the Hungarian way, "12 500 Ft" (non-breaking spaces)."""

from django import template

register = template.Library()


@register.filter
def ft(amount):
    if amount in (None, ""):
        return ""
    return f"{int(amount):,}".replace(",", "\u00a0") + "\u00a0Ft"
