"""The portal's one PDF maker: an A4 document of a title, a subtitle and blocks (tables, paragraphs).

Every app builds the same thing: `document(title, subtitle, blocks)` -> bytes, `pdf_response(...)` -> the
HTTP answer. A block is a `Table` (headers repeated on every page it spans, columns sized by relative
widths and aligned "L" / "C" / "R"), a `Heading` or a `Paragraph`. Cells are shown in the active language:
Decimals with its decimal mark (decimal comma on Hungarian pages, as the `dec` filter), dates and times in
its format. The footer carries the portal's name, the generation time and "1. / 3. oldal".

The text is set in DejaVu Sans (Hungarian ő / ű, suit symbols), found at run time among matplotlib's data
files (a runtime dependency) or the system's fonts: nothing is shipped with the portal.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from django.http import HttpResponse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from fpdf import FPDF
from fpdf.fonts import FontFace

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
        regular, bold = font_files()
        self.add_font(FONT, "", str(regular))
        self.add_font(FONT, "B", str(bold))
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


def _table(pdf: _Document, block: Table):
    if block.title:
        _heading(pdf, block.title, size=11)
    pdf.set_font(FONT, size=block.font_size)
    aligns = _aligns(block)
    widths = tuple(block.widths) if block.widths else None
    with pdf.table(
        col_widths=widths,
        text_align=aligns,
        width=pdf.epw,
        line_height=pdf.font_size * 1.6,
        # Headings a size smaller than the cells, so that a word like "Leosztás" fits a number's column.
        headings_style=FontFace(emphasis="BOLD", size_pt=block.font_size - 1, fill_color=(225, 235, 228)),
        repeat_headings=1,
        padding=(0.6, 1.2),
    ) as table:
        header = table.row()
        for text in block.headers:
            header.cell(str(text))
        for values in block.rows:
            row = table.row()
            for value in values:
                row.cell(cell_text(value))
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
    response = HttpResponse(document(title, subtitle, blocks), content_type="application/pdf")
    name = filename if filename.endswith(".pdf") else f"{filename}.pdf"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response
