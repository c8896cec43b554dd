"""Everything the portal holds about one person, for the "download my data" export (GDPR art. 15, 20).

Federation knows its own models only; the apps above it (entries, masterpoints, ratings, appeals) add their
sections from their `AppConfig.ready()` with `register_section`, as they do for the other registries. A
section is a function `(person, user) -> iterable of model instances or dicts`; the export turns every row
into plain values (`rows_of`), and writes JSON or one CSV (";" separated, UTF-8 with BOM, so Excel opens
it with the accents right) of (section, row, field, value) lines.

Erasure's counterpart: `register_eraser`, the apps' scrubbing of what they store with the person's name
(`Identity`), called by `federation.services.erasure`.
"""

import dataclasses
import datetime
import decimal
import json
import re
from collections.abc import Callable, Iterable

from django.db import models

from federation import spreadsheet

Section = Callable[[object, object], Iterable]

_SECTIONS: dict[str, Section] = {}

# Never exported, whatever model they are on: secrets, not data about the person.
SECRET_FIELDS = {"password", "key", "token"}


def register_section(name: str, collect: Section):
    """Add (or replace, on a second ready()) the section `name`."""
    _SECTIONS[name] = collect


def section_names() -> list[str]:
    return list(_SECTIONS)


def _plain(value):
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, dict | list):
        return value
    return str(value)


def row_of(obj) -> dict:
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items() if k not in SECRET_FIELDS}
    row = {}
    for field in obj._meta.concrete_fields:
        if field.name in SECRET_FIELDS:
            continue
        if isinstance(field, models.ForeignKey):
            related = getattr(obj, field.name)
            row[field.name] = str(related) if related is not None else None
        elif field.choices:
            row[field.name] = _plain(getattr(obj, field.attname))
            display = getattr(obj, f"get_{field.name}_display")()
            if display != row[field.name]:
                row[f"{field.name}_display"] = str(display)
        else:
            row[field.name] = _plain(getattr(obj, field.attname))
    return row


def collect(person, user) -> dict[str, list[dict]]:
    """Every section's rows for the person (a Person or None) and the account (a user or None)."""
    return {
        name: [row_of(obj) for obj in (section(person, user) or [])] for name, section in _SECTIONS.items()
    }


def as_json(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False).encode("utf-8")


def as_csv(data: dict) -> bytes:
    """One line per field (section; row; field; value), written like every other CSV of the portal."""

    def lines():
        for name, rows in data.items():
            for n, row in enumerate(rows, start=1):
                for key, value in row.items():
                    if isinstance(value, dict | list):
                        value = json.dumps(value, ensure_ascii=False)
                    yield [name, n, key, value]

    return spreadsheet.csv_text(["section", "row", "field", "value"], lines()).encode("utf-8")


# Erasure (GDPR art. 17). What the apps above federation keep about a person beyond the record itself
# (stored files, texts that carry the name) they scrub with an eraser registered here from their
# `AppConfig.ready()`: `(identity) -> list[str]`, the names of what it erased (kept on the request).
ERASED_TEXT = "[törölve]"


@dataclasses.dataclass(frozen=True)
class Identity:
    """Who an erased person was, taken before the record is anonymised: his full names as written and his
    e-mail addresses (with the payloads of the signed mail-preference tokens that encode them), and the name
    that replaces them."""

    person_id: int
    user_id: int | None
    names: frozenset[str]
    addresses: frozenset[str]
    tokens: frozenset[str]
    anonymous: str

    def texts(self) -> list[str]:
        """Every text that identifies him, longest first (a name inside an address is replaced whole)."""
        return sorted({*self.names, *self.addresses, *self.tokens}, key=len, reverse=True)

    def scrub(self, text: str) -> str:
        """`text` with his names replaced by the anonymous one, his addresses and tokens by ERASED_TEXT."""
        if not text:
            return text
        for token in sorted(self.tokens, key=len, reverse=True):
            # A signed token's payload (the address, base64) is the same whenever it was signed; its
            # timestamp and signature after it are not.
            text = re.sub(re.escape(token) + r"(?::[\w-]+){0,2}", ERASED_TEXT, text)
        for address in sorted(self.addresses, key=len, reverse=True):
            text = re.sub(re.escape(address), ERASED_TEXT, text, flags=re.IGNORECASE)
        for name in sorted(self.names, key=len, reverse=True):
            text = text.replace(name, self.anonymous)
        return text

    def mentioned_in(self, text: str) -> bool:
        return bool(text) and self.scrub(text) != text


Eraser = Callable[[Identity], Iterable[str]]
_ERASERS: dict[str, Eraser] = {}


def register_eraser(name: str, erase: Eraser):
    """Add (or replace, on a second ready()) the eraser `name`."""
    _ERASERS[name] = erase


def run_erasers(identity: Identity) -> list[str]:
    erased = []
    for erase in _ERASERS.values():
        erased.extend(erase(identity) or [])
    return erased
