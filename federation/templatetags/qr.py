"""`{% load qr %}`: `{{ url|qr_svg }}` draws the address as an inline SVG QR code (segno), for the cards that
go on a table: a phone's camera opens the table's page without typing its code. Inline SVG needs no image
request and no script, so it prints as it shows and passes the pages' content security policy."""

import segno
from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def qr_svg(text, scale=4):
    """The QR code (error correction M, so a creased card still scans) of `text` as an `<svg>` element."""
    if not text:
        return ""
    svg = segno.make(str(text), error="m", micro=False).svg_inline(scale=int(scale), border=2, omitsize=True)
    # omitsize leaves width/height to the page's CSS (the card sets it); the address is its accessible name.
    return format_html('<span class="qr" role="img" aria-label="{}">{}</span>', text, mark_safe(svg))
