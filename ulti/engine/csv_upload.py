"""Reading a round's forint results from CSV: one line per player, ``table;player;forint``.

``player`` is the start number printed on the table card, or the federation member number. A header line
is optional; the separator may be ';', ',' or a tab; forints may carry a sign, thousands spaces and "Ft".
The whole file is read before anything is checked against the round, so every line error is reported
at once (with its line number) and nothing is written.

Pure Python: a refusal carries ``problems``, each a ``gettext_noop``-marked message and its parameters,
which the service translates (``CsvError.messages`` is the untranslated text, for logs and tools).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

# What the portal's round export writes (and this reader skips as a header): the upload's own format, so
# an exported round can be corrected in a spreadsheet and uploaded again. A fourth column (the name) is
# for the reader; the parser reads the first three.
EXPORT_HEADER = ("Asztal", "Játékos", "Forint", "Név")
HEADER_WORDS = {"asztal", "table", "jatekos", "játékos", "player", "forint", "ft", "eredmeny", "eredmény"}
_FORINT = re.compile(r"^[+-]?\d+$")


def gettext_noop(message: str) -> str:
    """Marks a message for makemessages; the service layer translates it."""
    return message


@dataclass(frozen=True)
class Line:
    line: int
    table: str
    player: str
    forint: int


Problem = tuple[str, dict]  # (message id, its %-parameters)


class CsvError(ValueError):
    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(self.messages))

    @property
    def messages(self) -> list[str]:
        return [message % params for message, params in self.problems]


def _forint(text: str) -> int | None:
    cleaned = text.replace("\u00a0", "").replace(" ", "").replace("Ft", "").replace("ft", "")
    cleaned = cleaned.replace("\u2212", "-")
    return int(cleaned) if _FORINT.match(cleaned) else None


def parse(text: str) -> list[Line]:
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise CsvError([(gettext_noop("The file is empty."), {})])
    sample = text[:2000]
    delimiter = max(";,\t", key=sample.count)
    # Old Mac exports end lines with a bare CR, which the csv module refuses inside a row.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error as error:
        raise CsvError([(gettext_noop("The file cannot be read as CSV: %(reason)s"), {"reason": str(error)})])
    out, errors = [], []
    for number, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if number == 1 and {c.lower() for c in cells} & HEADER_WORDS:
            continue
        if len(cells) < 3:
            errors.append((gettext_noop("Line %(n)s: expected table, player and forint."), {"n": number}))
            continue
        table, player, amount = cells[0], cells[1], cells[2]
        if not table.isdecimal():
            errors.append(
                (gettext_noop("Line %(n)s: %(value)s is not a table number."), {"n": number, "value": table})
            )
            continue
        forint = _forint(amount)
        if forint is None:
            errors.append(
                (
                    gettext_noop("Line %(n)s: %(value)s is not a forint amount."),
                    {"n": number, "value": amount},
                )
            )
            continue
        out.append(Line(number, str(int(table)), player, forint))
    if errors:
        raise CsvError(errors)
    if not out:
        raise CsvError([(gettext_noop("The file has no results."), {})])
    return out
