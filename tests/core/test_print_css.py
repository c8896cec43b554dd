"""The browser's print of any page is clean: the base stylesheet's print rules hide the navigation and the
buttons, and the base layout loads that stylesheet."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _print_block() -> str:
    css = (ROOT / "static" / "css" / "portal.css").read_text(encoding="utf-8")
    start = css.index("@media print {")
    depth = 0
    for end, char in enumerate(css[start:], start=start):
        depth += char == "{"
        depth -= char == "}"
        if depth == 0 and char == "}":
            return css[start : end + 1]
    raise AssertionError("the @media print block is not closed")


def test_print_hides_the_navbar_buttons_and_page_tabs():
    block = _print_block()
    hidden = re.search(r"([^{}]+)\{\s*display:\s*none\s*!important", block).group(1)
    selectors = {s.strip() for s in hidden.replace("@media print {", "").split(",")}
    assert {"nav.navbar", "footer", ".no-print", ".btn", ".breadcrumb", ".nav-tabs"} <= selectors
    assert "table-header-group" in block  # long tables repeat their header on every printed page


def test_the_base_layout_loads_the_stylesheet():
    base = (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
    assert "css/portal.css" in base
