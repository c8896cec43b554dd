"""Dates and times on the portal's pages read the Hungarian way ("2026. 03. 14. 18:00"), never ISO
("2026-03-14 18:00"): no template formats a date with a dashed pattern, except as the value of a date input
(which the browser reads as ISO and shows in the reader's own format)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ISO_DATE = re.compile(r"""\|date:["']Y-m-d""")
INPUT_VALUE = re.compile(r"""type=["']date(time-local)?["']""")


def test_no_template_shows_iso_dates():
    templates = [
        path
        for path in ROOT.glob("**/templates/**/*.html")
        if not {".venv", "node_modules", "var"} & set(path.relative_to(ROOT).parts)
    ]
    assert len(templates) > 100  # really found the templates
    offending = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in templates
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ISO_DATE.search(line) and not INPUT_VALUE.search(line)
    ]
    assert offending == []
