"""The one PDF maker: A4, Hungarian letters, decimal comma, repeated table headers, page numbers."""

import datetime
from decimal import Decimal

from django.utils import translation

from federation import pdf
from tests.pdf_reading import read_pdf


def _standings(rows):
    return pdf.Table(
        headers=["Hely", "Név", "Pont"],
        rows=[(n, f"Kővári Győző {n}", Decimal("58.33")) for n in range(1, rows + 1)],
        widths=(1, 6, 2),
        align="LLR",
    )


def test_a_short_document_renders_one_a4_page_with_hungarian_text_and_decimal_comma():
    with translation.override("hu"):
        data = pdf.document("Eredmények", "Őszi páros verseny · 2026. 10. 12.", [_standings(3)])
    read = read_pdf(data)
    assert read.pages == 1
    assert read.ink > 500
    assert "Eredmények" in read.text and "Kővári Győző 1" in read.text and "Őszi" in read.text
    assert "58,33" in read.text and "58.33" not in read.text
    assert "1. / 1." in read.text


def test_english_keeps_the_decimal_point():
    with translation.override("en"):
        read = read_pdf(pdf.document("Results", blocks=[_standings(2)]))
    assert "58.33" in read.text and "1. / 1. page" in read.text


def test_a_long_table_spans_pages_and_repeats_its_header_on_each():
    with translation.override("hu"):
        read = read_pdf(pdf.document("Eredmények", blocks=[_standings(150)]))
    assert read.pages >= 3
    assert read.text.count("Hely") == read.pages
    assert f"1. / {read.pages}." in read.text and f"{read.pages}. / {read.pages}." in read.text
    assert "Kővári Győző 150" in read.text


def test_cells_show_dates_and_empty_values_in_the_language():
    with translation.override("hu"):
        assert pdf.cell_text(datetime.date(2026, 12, 2)) == "2026. december 2."
        assert pdf.cell_text(None) == ""
        assert pdf.cell_text(Decimal("-3.5")) == "-3,5"


def test_paragraphs_headings_and_suit_symbols_render():
    blocks = [pdf.Heading("1. leosztás"), pdf.Paragraph("♠ AK7 ♥ Q2 ♦ T98 ♣ J6543", bold=True)]
    read = read_pdf(pdf.document("Leosztások", blocks=blocks))
    assert "♠ AK7" in read.text and "♣ J6543" in read.text


def test_the_response_is_an_inline_pdf_with_its_file_name():
    response = pdf.pdf_response("eredmenyek", "Eredmények", blocks=[_standings(1)])
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="eredmenyek.pdf"'
    assert read_pdf(response.content).pages == 1


def test_a_narrow_column_widens_so_that_no_heading_word_breaks():
    """ "Helyezés" and "Leosztások" over number columns: the columns widen, the names' column gives way."""
    table = pdf.Table(
        headers=["Helyezés", "Pár", "Leosztások", "Összesen", "%"],
        rows=[(1, "Kővári Győző – Szűts Ödön", 27, Decimal("253.00"), Decimal("58.56"))],
        widths=(1, 10, 1.2, 1.6, 1.4),
        align="LLRRR",
    )
    with translation.override("hu"):
        text = read_pdf(pdf.document("Eredmények", "", [table])).text
    # read_pdf joins the lines of a cell with a space: a broken word would read "Helyezé s".
    assert "Helyezés" in text and "Leosztások" in text and "Kővári Győző – Szűts Ödön" in text


def test_column_widths_keep_the_proportions_when_the_headings_fit():
    document = pdf._Document("")
    document.add_page()
    document.set_font(pdf.FONT, "B", 8)
    widths = pdf._column_widths(document, (1, 3), ["A", "B"])
    assert round(sum(widths), 6) == round(document.epw, 6)
    assert round(widths[1] / widths[0], 6) == 3
