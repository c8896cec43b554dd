"""The portal's one PDF maker: an A4 document of a title, a subtitle and blocks (tables, paragraphs).

Every app builds the same thing: `document(title, subtitle, blocks)` -> bytes, `pdf_response(...)` -> the
HTTP answer. A block is a `Table` (headers repeated on every page it spans, columns sized by relative
widths and aligned "L" / "C" / "R"), a `Heading` or a `Paragraph`. Cells are shown in the active language:
Decimals with its decimal mark (decimal comma on Hungarian pages, as the `dec` filter), dates and times in
its format. The footer carries the portal's name, the generation time and "1. / 3. oldal".

The text is set in DejaVu Sans (Hungarian ő / ű, suit symbols), found at run time among matplotlib's data
files (a runtime dependency) or the system's fonts: nothing is shipped with the portal. The fonts are parsed
once per process (fpdf2's `add_font` parses the whole file every time); each document gets its own copy of
the per-document state (the subset of glyphs used, a fresh fontTools object that the subsetter may cut).
Tables are drawn row by row with plain cells, not fpdf2's general `table()` (which lays out every cell
twice with `multi_cell`): a 500-row list is a fraction of a second.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import logging
import threading
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from django.http import HttpResponse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from fontTools import ttLib
from fpdf import FPDF
from fpdf.enums import MethodReturnValue
from fpdf.fonts import SubsetMap, TTFFont

from federation.templatetags.numbers import dec

FONT = "DejaVu"
# fontTools logs every glyph table it subsets at INFO: noise in the portal's log.
logging.getLogger("fontTools").setLevel(logging.WARNING)
_SYSTEM_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF")


@dataclass(frozen=True)
class Table:
    """A table: `widths` relative (None: equal), `align` one letter per column or one for all."""

    headers: Sequence[str]
    rows: Sequence[Sequence[object]]
    widths: Sequence[float] | None = None
    align: str | Sequence[str] = "L"
    title: str = ""
    font_size: float = 9


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str
    size: float = 10
    bold: bool = False
    align: str = "L"


Block = Table | Heading | Paragraph


@lru_cache(maxsize=1)
def font_files() -> tuple[Path, Path]:
    """DejaVu Sans regular and bold: matplotlib's copies (found without importing it), else the system's."""
    dirs = []
    spec = importlib.util.find_spec("matplotlib")
    if spec and spec.submodule_search_locations:
        dirs += [Path(p) / "mpl-data" / "fonts" / "ttf" for p in spec.submodule_search_locations]
    dirs += [Path(d) for d in _SYSTEM_FONT_DIRS]
    for folder in dirs:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold
    raise RuntimeError("DejaVuSans.ttf not found (install matplotlib or fonts-dejavu-core)")


_parsed_lock = threading.Lock()


# Tables fpdf2 drops from every embedded subset anyway (see fpdf/output.py): removed once from the cached copy
# so that the per-document subsetting does not decode them (DejaVu's GSUB / GPOS are most of its time).
_UNUSED_TABLES = ("FFTM", "GDEF", "GPOS", "GSUB", "MATH", "hdmx", "meta")


@lru_cache(maxsize=4)
def _parsed_font(path: str, style: str) -> tuple[TTFFont, bytes]:
    """The font parsed once (metrics, character map, widths) and its trimmed bytes, for every later document."""
    with _parsed_lock:
        font = ttLib.TTFont(path, recalcTimestamp=False)
        for tag in _UNUSED_TABLES:
            if tag in font:
                del font[tag]
        buffer = BytesIO()
        font.save(buffer)
        data = buffer.getvalue()
        parsed = TTFFont(FPDF(), BytesIO(data), f"{FONT.lower()}{style}", style)
        parsed.ttffile = Path(path)
        return parsed, data


def _font_for(pdf: FPDF, path: Path, style: str) -> TTFFont:
    """A document's own copy of the parsed font: shared read-only tables, its own subset and fontTools object.

    At output fpdf2 subsets the fontTools object in place, so every document reopens it (lazily, from the
    cached bytes: milliseconds); the glyph subset, the missing glyphs and the largest size are per document.
    """
    parsed, data = _parsed_font(str(path), style)
    font = TTFFont.__new__(TTFFont)
    for slot in TTFFont.__slots__:
        if hasattr(parsed, slot):
            setattr(font, slot, getattr(parsed, slot))
    font.i = len(pdf.fonts) + 1
    font.ttfont = ttLib.TTFont(BytesIO(data), recalcTimestamp=False, lazy=True)
    # A defaultdict: reading an unknown character stores the default width, so each document has its own.
    font.cw = defaultdict(parsed.cw.default_factory, parsed.cw)
    font.missing_glyphs = []
    font.biggest_size_pt = 0
    font._hbfont = None
    font.subset = SubsetMap(font)
    return font


def cell_text(value) -> str:
    """A cell in the active language: decimal mark, dates; None empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _("yes") if value else ""
    if isinstance(value, Decimal | float):
        return str(dec(value))
    if isinstance(value, dt.datetime):
        return date_format(
            timezone.localtime(value) if timezone.is_aware(value) else value, "DATETIME_FORMAT"
        )
    if isinstance(value, dt.date):
        return date_format(value, "DATE_FORMAT")
    return str(value)


def line(*parts) -> str:
    """Parts of a subtitle joined by " · " in the active language, empty ones left out."""
    return " · ".join(text for text in (cell_text(p) for p in parts) if text)


class _Document(FPDF):
    def __init__(self, footer_text: str):
        super().__init__(orientation="P", unit="mm", format="A4")
        self.footer_text = footer_text
        self.table_header = None
        regular, bold = font_files()
        for style, path in (("", regular), ("B", bold)):
            self.fonts[f"{FONT.lower()}{style}"] = _font_for(self, path, style)
        self.set_margins(15, 15, 15)
        self.set_auto_page_break(True, margin=18)
        self.set_font(FONT, size=10)

    def footer(self):
        self.set_y(-13)
        self.set_font(FONT, size=7.5)
        self.set_text_color(100)
        self.cell(0, 5, self.footer_text, align="L")
        self.set_x(self.l_margin)
        page = _("%(page)s. / %(pages)s. page") % {"page": self.page_no(), "pages": self.alias_nb_pages_text}
        self.cell(0, 5, page, align="R")
        self.set_text_color(0)

    @property
    def alias_nb_pages_text(self) -> str:
        return self.str_alias_nb_pages


def _aligns(block: Table) -> tuple[str, ...]:
    if isinstance(block.align, str) and len(block.align) <= 1:
        return tuple(block.align or "L" for _h in block.headers)
    aligns = tuple(block.align)
    return aligns + ("L",) * (len(block.headers) - len(aligns))


_HEADER_FILL = (225, 235, 228)
_PAD_X, _PAD_Y = 1.2, 0.6


def _cell_lines(pdf: _Document, text: str, width: float) -> list[str]:
    if "\n" not in text and pdf.get_string_width(text) <= width - 2 * _PAD_X:
        return [text]
    return pdf.multi_cell(width, 1, text, dry_run=True, output=MethodReturnValue.LINES) or [""]


def _row(pdf: _Document, widths, aligns, texts, line_h: float, header: bool = False):
    """One row of bordered cells, all as tall as its tallest; a new page (header first) if it does not fit."""
    cells = [_cell_lines(pdf, text, width) for text, width in zip(texts, widths, strict=False)]
    lines = max((len(c) for c in cells), default=1)
    height = lines * line_h + 2 * _PAD_Y
    if not header and pdf.get_y() + height > pdf.page_break_trigger:
        pdf.add_page()
        pdf.table_header()
    x, y = pdf.l_margin, pdf.get_y()
    for content, width, align in zip(cells, widths, aligns, strict=False):
        if len(content) == 1 and lines == 1:
            pdf.set_xy(x, y)
            pdf.cell(width, height, content[0], border=1, align=align, fill=header)
        else:
            pdf.rect(x, y, width, height, style="DF" if header else "D")
            for k, text in enumerate(content):
                pdf.set_xy(x, y + _PAD_Y + k * line_h)
                pdf.cell(width, line_h, text, align=align)
        x += width
    pdf.set_xy(pdf.l_margin, y + height)


def _column_widths(pdf: _Document, relative, headers) -> list[float]:
    """The relative widths on the page, widened where a heading's longest word would not fit (so that
    "Helyezés" is not broken into "Helyezé" and "s"); the other columns give up the room, in proportion.
    A table whose headings cannot all fit keeps the plain proportions."""
    total = sum(relative)
    needed = [
        max((pdf.get_string_width(word) for word in text.split()), default=0) + 2 * _PAD_X + 0.5
        for text in headers
    ]
    if sum(needed) > pdf.epw:
        return [pdf.epw * w / total for w in relative]
    fixed: dict[int, float] = {}
    while True:
        free = [i for i in range(len(relative)) if i not in fixed]
        room = pdf.epw - sum(fixed.values())
        share = sum(relative[i] for i in free)
        widths = {i: room * relative[i] / share if share else 0 for i in free}
        short = {i for i in free if widths[i] < needed[i]}
        if not short:
            break
        fixed.update({i: needed[i] for i in short})
    return [fixed.get(i, widths.get(i, 0)) for i in range(len(relative))]


def _table(pdf: _Document, block: Table):
    if block.title:
        _heading(pdf, block.title, size=11)
    aligns = _aligns(block)
    relative = tuple(block.widths) if block.widths else (1,) * len(block.headers)
    headers = [str(text) for text in block.headers]
    pdf.set_font(FONT, "B", block.font_size - 1)
    widths = _column_widths(pdf, relative, headers)

    def header():
        # Headings a size smaller than the cells, so that a word like "Leosztás" fits a number's column.
        pdf.set_font(FONT, "B", block.font_size - 1)
        pdf.set_fill_color(*_HEADER_FILL)
        _row(pdf, widths, aligns, headers, pdf.font_size * 1.25, header=True)
        pdf.set_font(FONT, size=block.font_size)

    margin, pdf.c_margin = pdf.c_margin, _PAD_X
    pdf.table_header = header
    pdf.set_auto_page_break(False)
    try:
        if pdf.get_y() + 2 * block.font_size * 0.9 > pdf.page_break_trigger:
            pdf.add_page()
        header()
        line_h = pdf.font_size * 1.25
        for values in block.rows:
            _row(pdf, widths, aligns, [cell_text(value) for value in values], line_h)
    finally:
        pdf.set_auto_page_break(True, margin=18)
        pdf.table_header = None
        pdf.c_margin = margin
    pdf.ln(4)
    pdf.set_font(FONT, size=10)


def _heading(pdf: _Document, text: str, size: float = 12):
    pdf.set_font(FONT, "B", size)
    pdf.multi_cell(0, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)
    pdf.set_font(FONT, size=10)


def _paragraph(pdf: _Document, block: Paragraph):
    pdf.set_font(FONT, "B" if block.bold else "", block.size)
    pdf.multi_cell(0, block.size * 0.5, block.text, align=block.align, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_font(FONT, size=10)


def document(title: str, subtitle: str = "", blocks: Iterable[Block] = ()) -> bytes:
    """The PDF's bytes: `title` and `subtitle` on top of page 1, then the blocks in order."""
    generated = date_format(timezone.localtime(), "DATETIME_FORMAT")
    footer = _("%(portal)s · generated %(when)s") % {"portal": _("Versenyportál"), "when": generated}
    pdf = _Document(footer)
    pdf.set_title(title)
    pdf.set_creator(_("Versenyportál"))
    pdf.add_page()
    _heading(pdf, title, size=16)
    if subtitle:
        pdf.set_font(FONT, size=10.5)
        pdf.set_text_color(70)
        pdf.multi_cell(0, 5.5, subtitle, new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(0)
        pdf.ln(3)
    for block in blocks:
        if isinstance(block, Table):
            _table(pdf, block)
        elif isinstance(block, Heading):
            _heading(pdf, block.text)
        else:
            _paragraph(pdf, block)
    return bytes(pdf.output())


def pdf_response(filename: str, title: str, subtitle: str = "", blocks: Iterable[Block] = ()) -> HttpResponse:
    """The document as an inline PDF answer named `filename` (".pdf" added)."""
    return pdf_bytes_response(document(title, subtitle, blocks), filename)


def pdf_bytes_response(data: bytes, filename: str, *, attachment: bool = False) -> HttpResponse:
    """A PDF already made (one kept in the database, say) as the answer named `filename` (".pdf" added):
    shown inline, or offered for download with `attachment`."""
    response = HttpResponse(data, content_type="application/pdf")
    name = filename if filename.endswith(".pdf") else f"{filename}.pdf"
    response["Content-Disposition"] = f'{"attachment" if attachment else "inline"}; filename="{name}"'
    return response
