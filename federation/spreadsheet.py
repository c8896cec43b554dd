"""The one way the portal writes a list for a spreadsheet: CSV as a Hungarian Excel opens it, and XLSX.

Hungarian Excel reads a CSV with ";" between the fields, a decimal comma and, to know it is UTF-8 (and not
show "Å‘" for "ő"), a byte-order mark at the start. `csv_text` / `csv_response` write exactly that, whatever
the page's language; `xlsx_response` writes the same header and rows as a workbook (numbers stay numbers).
The portal's readers of uploaded CSV accept both "," and ";" (the first line decides).

Text that a spreadsheet would run as a formula (a name typed as "=HYPERLINK(...)", "+1", "-x", "@SUM")
is written with a leading apostrophe, in both formats; numbers keep their sign (they are numbers, not text).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

from django.http import HttpResponse, StreamingHttpResponse
from openpyxl import Workbook

SEPARATOR = ";"
BOM = "\ufeff"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_text(text: str) -> str:
    """Text as text: one starting like a formula gets an apostrophe in front (CSV / formula injection)."""
    return f"'{text}" if text.startswith(FORMULA_START) else text


def field(value) -> str:
    """A value as Hungarian Excel reads it: decimal comma, ISO dates, None empty, text never a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, Decimal | float):
        return str(value).replace(".", ",")
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat(sep=" ", timespec="minutes") if isinstance(value, dt.datetime) else str(value)
    if isinstance(value, int):
        return str(value)
    return safe_text(str(value))


class _Line:
    def write(self, value):
        return value


def csv_lines(header: Sequence | None, rows: Iterable[Sequence]) -> Iterable[str]:
    """The file line by line, the first one starting with the byte-order mark."""
    writer = csv.writer(_Line(), delimiter=SEPARATOR, lineterminator="\r\n")
    prefix = BOM
    if header is not None:
        yield prefix + writer.writerow([field(v) for v in header])
        prefix = ""
    for row in rows:
        yield prefix + writer.writerow([field(v) for v in row])
        prefix = ""
    if prefix:
        yield prefix


def csv_text(header: Sequence | None, rows: Iterable[Sequence]) -> str:
    return "".join(csv_lines(header, rows))


def _disposition(filename: str, ext: str) -> str:
    name = filename if filename.endswith(ext) else f"{filename}{ext}"
    return f'attachment; filename="{name}"'


def csv_response(filename: str, header: Sequence | None, rows: Iterable[Sequence]) -> StreamingHttpResponse:
    """A streamed CSV download (rows may be a lazy iterator over a large list)."""
    response = StreamingHttpResponse(csv_lines(header, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = _disposition(filename, ".csv")
    return response


def _cell(value):
    if value is None or isinstance(value, int | Decimal | float | dt.date):
        return value
    return safe_text(str(value))


def xlsx_bytes(header: Sequence | None, rows: Iterable[Sequence], sheet: str = "") -> bytes:
    book = Workbook(write_only=True)
    worksheet = book.create_sheet(title=(sheet or "Lista")[:31])
    if header is not None:
        worksheet.append([safe_text(str(v)) for v in header])
    for row in rows:
        worksheet.append([_cell(v) for v in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xlsx_response(filename: str, header: Sequence | None, rows: Iterable[Sequence], sheet: str = ""):
    response = HttpResponse(xlsx_bytes(header, rows, sheet), content_type=XLSX)
    response["Content-Disposition"] = _disposition(filename, ".xlsx")
    return response
