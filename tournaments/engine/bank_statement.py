"""Reading a Hungarian bank's statement export (CSV) and matching its transfers to entries (pure Python).

The export is ';'-separated with a header line; the columns are found by their Hungarian names (the
banks name them differently: "Könyvelés dátuma" or "Értéknap", "Összeg" or "Jóváírás", "Partner neve" or
"Ellenoldali név"); the text the payer wrote is the "Közlemény" column. Amounts have a decimal comma and
may carry thousands separators (space, non-breaking space or dot), a sign and "HUF" / "Ft"; they must be
whole forints. Dates are 2026.11.05., 2026-11-05 or 2026/11/05.

The whole file is read before anything is matched, so every bad line is reported at once (with its line
number) and nothing is booked. A refusal carries ``problems``: ``gettext_noop``-marked messages and their
parameters, which the service translates.

Each line gets a fingerprint (its date, amount, payer and text, and how many identical lines came before
it in the file), so importing the same statement again books nothing new.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import re
from dataclasses import dataclass, field

from federation.engine.text import search_key

from .payments import references_in


def gettext_noop(message: str) -> str:
    """Marks a message for makemessages; the service layer translates it."""
    return message


COLUMNS = {
    "date": (
        "datum",
        "konyveles datuma",
        "konyvelesi datum",
        "konyveles napja",
        "ertéknap",
        "erteknap",
        "tranzakcio datuma",
        "terheles datuma",
    ),
    "amount": ("osszeg", "jovairas", "jovairt osszeg", "osszeg (huf)", "osszeg huf", "tranzakcio osszege"),
    "payer": (
        "partner neve",
        "partner",
        "ellenoldali nev",
        "ellenoldal neve",
        "befizeto",
        "befizeto neve",
        "kuldo neve",
        "megbizo neve",
        "nev",
    ),
    "text": ("kozlemeny", "kozlemeny / leiras", "megjegyzes kozlemeny"),
}
REQUIRED = ("date", "amount", "text")
_AMOUNT = re.compile(r"^([+-]?)(\d{1,3}(?:[ .]\d{3})+|\d+)(?:,(\d{1,2}))?$")
_DATE = re.compile(r"^(\d{4})[.\-/]\s?(\d{1,2})[.\-/]\s?(\d{1,2})\.?(?:\s.*)?$")

Problem = tuple[str, dict]


class StatementError(ValueError):
    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(self.messages))

    @property
    def messages(self) -> list[str]:
        return [message % params for message, params in self.problems]


@dataclass(frozen=True)
class StatementLine:
    line: int
    date: datetime.date
    amount: int
    payer: str
    text: str
    fingerprint: str
    references: tuple[int, ...] = field(default=())


def _header_key(cell: str) -> str:
    return search_key(cell).strip(" :")


def _columns(header: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, cell in enumerate(header):
        key = _header_key(cell)
        for name, aliases in COLUMNS.items():
            if name not in found and key in {search_key(a) for a in aliases}:
                found[name] = index
    return found


def parse_amount(text: str) -> int | None:
    """Whole forints from "12 000,00", "-1.200", "+3000 HUF"; None for anything else (fillér included)."""
    cleaned = text.replace("\u00a0", " ").replace("\u2212", "-").strip()
    for unit in ("HUF", "Ft", "ft", "huf"):
        cleaned = cleaned.removesuffix(unit).strip()
    match = _AMOUNT.match(cleaned)
    if not match:
        return None
    sign, whole, fraction = match.groups()
    if fraction and int(fraction):
        return None
    value = int(whole.replace(" ", "").replace(".", ""))
    return -value if sign == "-" else value


def parse_date(text: str) -> datetime.date | None:
    match = _DATE.match(text.strip())
    if not match:
        return None
    try:
        return datetime.date(*(int(g) for g in match.groups()))
    except ValueError:
        return None


def _fingerprint(date, amount, payer, text, occurrence) -> str:
    key = "\x1f".join([date.isoformat(), str(amount), " ".join(payer.split()), " ".join(text.split())])
    return hashlib.sha256(f"{key}\x1f{occurrence}".encode()).hexdigest()


def parse(text: str) -> list[StatementLine]:
    """Every line of the statement after its header, or a StatementError naming each bad line."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise StatementError([(gettext_noop("The file is empty."), {})])
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    except csv.Error as error:
        raise StatementError(
            [(gettext_noop("The file cannot be read as CSV: %(reason)s"), {"reason": str(error)})]
        ) from None
    numbered = [
        (n, [c.strip() for c in row]) for n, row in enumerate(rows, start=1) if any(c.strip() for c in row)
    ]
    header_line, header = numbered[0]
    columns = _columns(header)
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        return _refuse_header(header_line, header, missing)
    out: list[StatementLine] = []
    errors: list[Problem] = []
    seen: dict[tuple, int] = {}
    width = max(columns.values()) + 1
    for number, cells in numbered[1:]:
        if len(cells) < width:
            errors.append(
                (
                    gettext_noop("Line %(n)s: %(found)s columns instead of %(expected)s."),
                    {"n": number, "found": len(cells), "expected": width},
                )
            )
            continue
        date = parse_date(cells[columns["date"]])
        amount = parse_amount(cells[columns["amount"]])
        if date is None:
            errors.append(
                (
                    gettext_noop("Line %(n)s: %(value)s is not a date (2026.11.05.)."),
                    {"n": number, "value": cells[columns["date"]]},
                )
            )
        if amount is None:
            errors.append(
                (
                    gettext_noop("Line %(n)s: %(value)s is not an amount in whole forints (12 000,00)."),
                    {"n": number, "value": cells[columns["amount"]]},
                )
            )
        if date is None or amount is None:
            continue
        payer = cells[columns["payer"]] if "payer" in columns else ""
        remark = cells[columns["text"]]
        key = (date, amount, " ".join(payer.split()), " ".join(remark.split()))
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        out.append(
            StatementLine(
                line=number,
                date=date,
                amount=amount,
                payer=payer,
                text=remark,
                fingerprint=_fingerprint(date, amount, payer, remark, occurrence),
                references=tuple(references_in(remark)),
            )
        )
    if errors:
        raise StatementError(errors)
    if not out:
        raise StatementError([(gettext_noop("The statement has no transactions."), {})])
    return out


def _refuse_header(line: int, header: list[str], missing: list[str]):
    names = {"date": "Dátum", "amount": "Összeg", "text": "Közlemény"}
    raise StatementError(
        [
            (
                gettext_noop(
                    "Line %(n)s: the header has no %(columns)s column; expected a bank export with the "
                    "columns Dátum, Összeg, Partner neve and Közlemény, separated by ';'."
                ),
                {"n": line, "columns": ", ".join(names[m] for m in missing)},
            )
        ]
    )


# Why a line is not booked.
NOT_CREDIT, NO_REFERENCE, SEVERAL_REFERENCES, UNKNOWN_ENTRY, ALREADY_BOOKED = (
    "not_credit",
    "no_reference",
    "several_references",
    "unknown_entry",
    "already_booked",
)


@dataclass(frozen=True)
class Match:
    line: StatementLine
    entry_id: int | None
    reason: str = ""  # empty: booked (or to be booked); else one of the reasons above

    @property
    def matched(self) -> bool:
        return self.entry_id is not None and not self.reason


def match(lines: list[StatementLine], known_entries: set[int], booked: set[str]) -> list[Match]:
    """Each line's entry: ``known_entries`` are the entries the importer's account collects for,
    ``booked`` the fingerprints already booked."""
    out = []
    for line in lines:
        if line.fingerprint in booked:
            entry = line.references[0] if len(line.references) == 1 else None
            out.append(Match(line, entry, ALREADY_BOOKED))
        elif line.amount <= 0:
            out.append(Match(line, None, NOT_CREDIT))
        elif not line.references:
            out.append(Match(line, None, NO_REFERENCE))
        elif len(line.references) > 1:
            out.append(Match(line, None, SEVERAL_REFERENCES))
        elif line.references[0] not in known_entries:
            out.append(Match(line, None, UNKNOWN_ENTRY))
        else:
            out.append(Match(line, line.references[0]))
    return out
