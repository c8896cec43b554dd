"""The PDF maker parses its fonts once per process; each document still embeds its own glyphs, and long cells wrap."""

from django.utils import translation

from federation import pdf
from tests.pdf_reading import read_pdf


def test_later_documents_reuse_the_parsed_fonts_and_keep_their_own_glyphs():
    pdf.document("Első", blocks=[pdf.Paragraph("♠ AK7")])
    misses = pdf._parsed_font.cache_info().misses
    first = read_pdf(pdf.document("Árvíztűrő tükörfúrógép", blocks=[pdf.Paragraph("Győző ő ű")]))
    second = read_pdf(pdf.document("Leosztás", blocks=[pdf.Paragraph("♥ Q2 ♣ J6543")]))
    assert pdf._parsed_font.cache_info().misses == misses
    assert "Árvíztűrő tükörfúrógép" in first.text and "Győző ő ű" in first.text
    assert "♥ Q2 ♣ J6543" in second.text and "Leosztás" in second.text


def test_a_cell_wider_than_its_column_wraps_and_keeps_every_word():
    name = "Magyar Autonóm Ulti Sportszövetség Dél-alföldi Regionális Szervezete"
    table = pdf.Table(["Hely", "Szervezet", "Pont"], [(1, name, 12), (2, "Rövid", 3)], widths=(1, 2, 1))
    with translation.override("hu"):
        read = read_pdf(pdf.document("Lista", blocks=[table]))
    words = read.text.split()
    assert all(word in words for word in name.split())
    assert read.pages == 1 and "Rövid" in words
