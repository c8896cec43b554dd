"""The pure parts of payments: an entry's status, its transfer reference, reading a bank statement."""

import datetime

import pytest

from tournaments.engine import bank_statement as bs
from tournaments.engine.payments import (
    NONE,
    PAID,
    PART_PAID,
    REFUNDED,
    UNPAID,
    payment_state,
    reference_for,
    references_in,
    refund_refusal,
)


@pytest.mark.parametrize(
    "owed, amounts, status, due, refund_due",
    [
        (4000, [], UNPAID, 4000, 0),
        (4000, [1000], PART_PAID, 3000, 0),
        (4000, [4000], PAID, 0, 0),
        (4000, [2000, 2000], PAID, 0, 0),
        (0, [], NONE, 0, 0),
        (0, [4000], PAID, 0, 4000),  # paid, then withdrew: the money is to be paid back
        (0, [4000, -4000], REFUNDED, 0, 0),
        (4000, [5000, -1000], PAID, 0, 0),
        (4000, [4000, -1000], PART_PAID, 1000, 0),
    ],
)
def test_status_from_the_fee_and_the_payments(owed, amounts, status, due, refund_due):
    state = payment_state(owed, amounts)
    assert (state.status, state.due, state.refund_due) == (status, due, refund_due)


def test_a_refund_may_not_exceed_what_was_paid():
    state = payment_state(4000, [3000])
    assert refund_refusal(state, 3000) is None
    assert refund_refusal(state, 3001) == "more_than_paid"
    assert refund_refusal(state, 0) == "not_positive"


def test_references_are_unique_and_survive_the_banks_formatting():
    refs = {reference_for(n) for n in range(1, 5000)}
    assert len(refs) == 4999
    ref = reference_for(1234)
    number, letter = ref[2:-1], ref[-1]
    for text in (ref, ref.lower(), f"VP-{number}-{letter}", f"nevezes vp {number} {letter.lower()} koszi"):
        assert references_in(text) == [1234], text


def test_a_mistyped_or_swapped_digit_is_no_reference():
    ref = reference_for(1234)
    assert references_in(ref.replace("1234", "1235")) == []
    assert references_in(ref.replace("1234", "1324")) == []
    assert references_in("VP1234") == []  # no check letter
    assert references_in(f"X{ref}") == []  # inside another word


HEADER = "Könyvelés dátuma;Összeg;Partner neve;Közlemény\n"


def test_reading_a_hungarian_statement():
    text = HEADER + (
        f'2026.11.05.;"12 000,00";Kovács Péter;Nevezés {reference_for(7)}\n'
        "2026-11-06;-1.500,00;Bank;Számlavezetési díj\n"
        "\n"
        '2026/11/07;+3000 HUF;"Szabó, Anna";köszönöm\n'
    )
    lines = bs.parse(text)
    assert [(x.line, x.date, x.amount, x.payer, x.references) for x in lines] == [
        (2, datetime.date(2026, 11, 5), 12000, "Kovács Péter", (7,)),
        (3, datetime.date(2026, 11, 6), -1500, "Bank", ()),
        (5, datetime.date(2026, 11, 7), 3000, "Szabó, Anna", ()),
    ]


def test_every_bad_line_is_named():
    text = HEADER + "2026.11.05.;12 000,50;A;x\n2026.13.01.;100;B;y\n2026.11.05.;100\n2026.11.05.;100;C;ok\n"
    with pytest.raises(bs.StatementError) as error:
        bs.parse(text)
    messages = error.value.messages
    assert any(m.startswith("Line 2:") and "12 000,50" in m for m in messages)
    assert any(m.startswith("Line 3:") and "2026.13.01." in m for m in messages)
    assert any(m.startswith("Line 4:") for m in messages)
    assert not any(m.startswith("Line 5:") for m in messages)


def test_a_file_without_the_columns_is_refused_naming_the_header_line():
    with pytest.raises(bs.StatementError) as error:
        bs.parse("Dátum;Összeg;Partner\n2026.11.05.;100;A\n")
    assert error.value.messages[0].startswith("Line 1:") and "Közlemény" in error.value.messages[0]


def test_identical_lines_get_different_fingerprints_and_a_reimport_the_same_ones():
    text = HEADER + "2026.11.05.;1000;A;x\n2026.11.05.;1000;A;x\n"
    first, second = bs.parse(text)
    assert first.fingerprint != second.fingerprint
    assert [x.fingerprint for x in bs.parse(text)] == [first.fingerprint, second.fingerprint]


def test_matching_books_only_a_single_known_reference_of_a_credit():
    r7, r8 = reference_for(7), reference_for(8)
    text = HEADER + (
        f"2026.11.05.;1000;A;{r7}\n"
        f"2026.11.05.;-1000;B;{r7}\n"
        "2026.11.05.;1000;C;nincs\n"
        f"2026.11.05.;1000;D;{r7} {r8}\n"
        f"2026.11.05.;1000;E;{r8}\n"
        f"2026.11.06.;1000;F;{r7}\n"
    )
    lines = bs.parse(text)
    matches = bs.match(lines, known_entries={7}, booked={lines[5].fingerprint})
    assert [(m.entry_id, m.reason) for m in matches] == [
        (7, ""),
        (None, bs.NOT_CREDIT),
        (None, bs.NO_REFERENCE),
        (None, bs.SEVERAL_REFERENCES),
        (None, bs.UNKNOWN_ENTRY),
        (7, bs.ALREADY_BOOKED),
    ]
    assert [m.matched for m in matches] == [True, False, False, False, False, False]
