"""Seating on the movement page: VSz 13 in mixed pairs (who sits where, and the lady's wrong seats) and the
entries' seating requests (VSz 10), both for the director."""

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from bridge.engine import seating
from tournaments.models import Entry, EntryMember, Event

from . import notation


def is_mixed(event) -> bool:
    return event.gender_restriction == Event.Gender.MIXED


def _genders(seat) -> tuple:
    pair = seat.pair
    return tuple(p.gender if p is not None else None for p in (pair.player1, pair.player2))


def mixed_seating(seats: dict, guide: dict) -> dict:
    """`seats`: the section's SessionPairs by pair number (pair players loaded); `guide`: the movement's
    guide cards. Returns the findings worded for the director and, per pair and round, who sits where:
    ``who[pair][round] = [(seat, person, wrong)]`` with the lady's seat marked wrong when not S / W."""
    genders = {number: _genders(seat) for number, seat in seats.items() if seat.pair.player1_id}
    findings = []
    for f in seating.mixed_findings(guide, genders):
        name = seats[f.pair].pair.display_name
        if f.code == "not_mixed":
            text = _(
                "Pair %(number)s (%(name)s) is not a lady and a gentleman: check it in a mixed-pairs event."
            )
            text %= {"number": f.pair, "name": name}
        else:
            text = _(
                "VSz 13: in pair %(number)s (%(name)s) the lady would sit %(seats)s in round(s) %(rounds)s; "
                "in mixed pairs she sits South or West. Swap the two players for those rounds."
            ) % {
                "number": f.pair,
                "name": name,
                "seats": ", ".join(sorted({notation.seat(s) for s in f.seats})),
                "rounds": ", ".join(str(r) for r in f.rounds),
            }
        findings.append({"code": f.code, "severity": "warning", "text": text, "pair": f.pair})
    who = {}
    for number, gender in genders.items():
        lady = seating.lady_index(gender)
        players = (seats[number].pair.player1, seats[number].pair.player2)
        who[number] = {
            e.round: [
                (e.seats[i], players[i], i == lady and e.seats[i] not in seating.LADY_SEATS) for i in (0, 1)
            ]
            for e in guide.get(number, [])
            if e.seats
        }
    return {"findings": findings, "who": who}


def entry_requests(event) -> list:
    """The event's open entries that asked for a seating, for the session setup (where sections are made)."""
    return list(
        event.entries.filter(status__in=(Entry.Status.ACTIVE, Entry.Status.WAITING))
        .exclude(seating_request="")
        .prefetch_related(Prefetch("members", queryset=EntryMember.objects.select_related("person")))
    )


def seating_requests(seats: dict) -> list[dict]:
    """The section's pairs whose entry asked for a seating (non-smoking, stationary table, other)."""
    rows = []
    for number, seat in sorted(seats.items()):
        entry = seat.pair.entry
        if entry is not None and entry.seating_request:
            rows.append(
                {
                    "number": number,
                    "seat": seat,
                    "request": entry.get_seating_request_display(),
                    "code": entry.seating_request,
                    "note": entry.seating_note,
                }
            )
    return rows
