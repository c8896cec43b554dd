"""The one spreadsheet writer: Hungarian Excel's CSV (';', decimal comma, BOM) and an XLSX of the same rows."""

import csv
import datetime
import io
from decimal import Decimal

import openpyxl

from federation import spreadsheet


def test_csv_is_semicolon_separated_with_a_decimal_comma_and_a_byte_order_mark():
    text = spreadsheet.csv_text(["Név", "Pont"], [("Kőrösi; Győző", Decimal("12.50")), ("Ács", None)])
    assert text.startswith("\ufeff")
    assert text.encode("utf-8").startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert rows == [["Név", "Pont"], ["Kőrösi; Győző", "12,50"], ["Ács", ""]]


def test_dates_are_iso_and_an_empty_file_still_has_its_mark():
    assert spreadsheet.field(datetime.date(2026, 12, 2)) == "2026-12-02"
    assert spreadsheet.csv_text(None, []) == "\ufeff"


def test_xlsx_keeps_numbers_as_numbers():
    data = spreadsheet.xlsx_bytes(
        ["Név", "Pont"], [("Kőrösi Győző", Decimal("12.5")), ("Ács", 3)], sheet="Lista"
    )
    rows = list(openpyxl.load_workbook(io.BytesIO(data)).active.iter_rows(values_only=True))
    assert rows == [("Név", "Pont"), ("Kőrösi Győző", 12.5), ("Ács", 3)]


def test_text_that_reads_as_a_formula_is_written_as_text_and_numbers_keep_their_sign():
    text = spreadsheet.csv_text(
        ["Név", "Ft"], [("=1+1", -90), ("+36 1 234", 480), ("@SUM(A1)", 0), ("-x", None)]
    )
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert rows[1:] == [["'=1+1", "-90"], ["'+36 1 234", "480"], ["'@SUM(A1)", "0"], ["'-x", ""]]
    data = spreadsheet.xlsx_bytes(["=Név", "Ft"], [('=HYPERLINK("http://x")', -90)])
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    assert list(sheet.iter_rows(values_only=True)) == [("'=Név", "Ft"), ('\'=HYPERLINK("http://x")', -90)]
    assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)
