"""What an entry has paid against what it owes, and its bank-transfer reference (pure: no Django).

Payments are append-only rows of integer forints: a payment is positive, a refund negative. The status
compares their sum with the fee the fee engine says is owed (``fees.entry_fee``: a no-show that did not
withdraw owes it too, VSz 7):

- ``none``: nothing owed and nothing paid;
- ``unpaid``: something owed, nothing (net) paid;
- ``part_paid``: less than the fee paid;
- ``paid``: the fee paid (a surplus, e.g. after a withdrawal, is ``refund_due``);
- ``refunded``: money was paid and all of it went back.

The reference is ``VP`` + the entry's number + a check letter, e.g. ``VP1234K``: short enough for a bank
transfer's "Közlemény" field, unique because the number is, and a mistyped or swapped digit gives a
reference that fails its check instead of booking the money to somebody else's entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

NONE, UNPAID, PART_PAID, PAID, REFUNDED = "none", "unpaid", "part_paid", "paid", "refunded"

# 23 letters (no I, O, Q: they are read as 1, 0 and O): a prime, so every single-digit error and every
# swap of two neighbouring digits changes the check letter.
CHECK_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"
PREFIX = "VP"
_REFERENCE = re.compile(r"(?<![A-Z0-9])VP[\s\-/.]?(\d{1,12})[\s\-/.]?([A-Z])(?![A-Z0-9])")


@dataclass(frozen=True)
class PaymentState:
    owed: int
    received: int
    refunded: int
    status: str

    @property
    def net(self) -> int:
        return self.received - self.refunded

    @property
    def balance(self) -> int:
        """Still due (positive) or to be paid back (negative)."""
        return self.owed - self.net

    @property
    def due(self) -> int:
        return max(self.balance, 0)

    @property
    def refund_due(self) -> int:
        return max(-self.balance, 0)


def payment_state(owed: int, amounts: Iterable[int]) -> PaymentState:
    amounts = list(amounts)
    received = sum(a for a in amounts if a > 0)
    refunded = -sum(a for a in amounts if a < 0)
    net = received - refunded
    if refunded and net <= 0:
        status = REFUNDED
    elif owed <= 0 and net <= 0:
        status = NONE
    elif net >= owed:
        status = PAID
    elif net > 0:
        status = PART_PAID
    else:
        status = UNPAID
    return PaymentState(owed, received, refunded, status)


def refund_refusal(state: PaymentState, amount: int) -> str | None:
    """Why a refund of ``amount`` (positive) cannot be booked, or None."""
    if amount <= 0:
        return "not_positive"
    if amount > state.net:
        return "more_than_paid"
    return None


def check_letter(number: int) -> str:
    digits = str(number)
    total = sum(int(d) * weight for weight, d in enumerate(reversed(digits), start=1))
    return CHECK_LETTERS[total % len(CHECK_LETTERS)]


def reference_for(entry_id: int) -> str:
    return f"{PREFIX}{entry_id}{check_letter(entry_id)}"


def references_in(text: str) -> list[int]:
    """The entry numbers of the valid references in a transfer's text (upper- or lower-case, with or
    without a space, hyphen, slash or dot after ``VP`` and before the check letter), each once."""
    found: list[int] = []
    for match in _REFERENCE.finditer(text.upper()):
        number = int(match.group(1))
        if check_letter(number) == match.group(2) and number not in found:
            found.append(number)
    return found


def receipt_number(federation_code: str, year: int, payment_id: int, refund: bool) -> str:
    """A receipt's number: federation, year recorded, the payment's number; "V" marks a refund receipt
    (visszatérítés), e.g. ``MBSZ-2026-000123`` and ``MBSZ-V-2026-000124``. Unique because the payment's
    number is, and the same every time the receipt is printed again."""
    kind = "-V" if refund else ""
    return f"{federation_code.upper()}{kind}-{year}-{payment_id:06d}"
