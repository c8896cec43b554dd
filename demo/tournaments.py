"""Demo calendar for this year and next, both federations, with entries drawn from the seeded people.

Deterministic (one random generator per event title) and idempotent: an event is looked up by federation,
title and year, and its sessions, divisions, history and entries are made only when it is created. Entries
are written directly (no e-mails), after the same eligibility check the entry service runs.
"""

import datetime

from django.db import transaction

from federation.models import Person, Region
from tournaments.models import Event

from .tournaments_builder import Builder, E, F, S, at


@transaction.atomic
def seed(out=None):
    b = Builder(out)
    y, n = b.year, b.year + 1
    today = b.today
    _bridge(b, y, n, today)
    _ulti(b, y, n, today)
    if out:
        out.write(
            f"tournaments: {b.created} events and {b.entries} entries created ({Event.objects.count()} events in all)"
        )


def _bridge(b, y, n, today):
    mbsz = b.mbsz
    bbe, pannonia, dbc, szbe, balbk = (b.club(s) for s in ("BBE", "Pannónia", "DBC", "SZBE", "BalBK"))
    pairs_sessions = (("1. forduló", 0, 10, 0), ("2. forduló", 0, 15, 0))
    for year, status in ((y, S.APPROVED), (n, S.PROPOSED)):
        ev, new = b.event(
            mbsz,
            "Budapest Bajnokság párosverseny",
            b.date(year, 3, 14),
            status=status,
            event_class=E.CHAMPIONSHIP,
            format=F.PAIRS,
            movement="Mitchell, két forduló",
            boards=52,
            sessions=pairs_sessions,
            divisions=("I. osztály", "II. osztály"),
            members_only=True,
            residency_required=True,
            entry_fee=4000,
            junior_entry_fee=2000,
            masterpoint_multiplier="2.00",
            appeal_deposit=5000,
            capacity=60,
        )
        if new:
            b.fill(ev, 34, no_shows=1, withdrawn=1)
        ev, new = b.event(
            mbsz,
            "Országos Mitchell Páros Bajnokság",
            b.date(year, 10, 10),
            status=status,
            end_date=b.date(year, 10, 11),
            event_class=E.CHAMPIONSHIP,
            format=F.PAIRS,
            movement="Mitchell, három forduló",
            boards=78,
            sessions=(("1. forduló", 0, 10, 0), ("2. forduló", 0, 15, 30), ("3. forduló", 1, 10, 0)),
            members_only=True,
            residency_required=True,
            entry_fee=6000,
            junior_entry_fee=3000,
            meal_fee=2500,
            meal_compulsory=True,
            masterpoint_multiplier="3.00",
            appeal_deposit=5000,
            lodging="Kedvezményes szállás a versenyszállóban: 14 000 Ft/fő/éj.",
        )
        if new:
            b.fill(ev, 40, no_shows=2)
    ev, new = b.event(
        mbsz,
        "Budapest Vegyes Páros Bajnokság",
        b.date(y, 4, 18),
        event_class=E.CHAMPIONSHIP,
        format=F.PAIRS,
        movement="Howell",
        boards=48,
        sessions=pairs_sessions,
        members_only=True,
        residency_required=True,
        gender_restriction=Event.Gender.MIXED,
        entry_fee=4000,
        masterpoint_multiplier="2.00",
    )
    if new:
        b.fill(ev, 18)
    ev, new = b.event(
        mbsz,
        "Budapest Csapatbajnokság",
        b.date(y, 2, 7),
        end_date=b.date(y, 2, 8),
        event_class=E.CHAMPIONSHIP,
        format=F.TEAMS,
        movement="Svájci rendszer, 7 forduló × 8 leosztás",
        boards=56,
        sessions=(("1-4. forduló", 0, 10, 0), ("5-7. forduló", 1, 10, 0)),
        members_only=True,
        residency_required=True,
        entry_fee=3000,
        masterpoint_multiplier="2.50",
    )
    if new:
        b.fill(ev, 12)
    ev, new = b.event(
        mbsz,
        "Balatoni Bridzsfesztivál csapatverseny",
        b.date(y, 7, 18),
        club=balbk,
        end_date=b.date(y, 7, 19),
        event_class=E.ANNOUNCED,
        format=F.TEAMS,
        movement="Dán-svájci rendszer",
        boards=60,
        sessions=(("Szombat", 0, 14, 0), ("Vasárnap", 1, 9, 30)),
        entry_fee=5000,
        junior_entry_fee=2500,
        masterpoint_multiplier="1.50",
        lodging="Szállás a Hotel Annabellában, 18 000 Ft/fő/éj.",
    )
    if new:
        b.fill(ev, 10)
    ev, new = b.event(
        mbsz,
        "Pannónia Kupa",
        b.date(y, 5, 23),
        club=pannonia,
        event_class=E.ANNOUNCED,
        format=F.PAIRS,
        movement="Mitchell",
        boards=54,
        sessions=pairs_sessions,
        entry_fee=3500,
        masterpoint_multiplier="1.50",
        divisions=("Haladó", "Kezdő"),
    )
    if new:
        b.fill(ev, 26, no_shows=1)
    b.event(
        mbsz,
        "Pannónia Kupa",
        b.date(n, 5, 22),
        club=pannonia,
        status=S.SUBMITTED,
        event_class=E.ANNOUNCED,
        format=F.PAIRS,
        movement="Mitchell",
        boards=54,
        sessions=pairs_sessions,
        entry_fee=3500,
        masterpoint_multiplier="1.50",
    )
    ev, new = b.event(
        mbsz,
        "Ifjúsági páros verseny",
        b.date(y, 9, 6),
        club=bbe,
        event_class=E.CLUB,
        format=F.PAIRS,
        age_restriction=Event.Age.JUNIOR,
        boards=24,
        sessions=(("", 0, 14, 0),),
        entry_fee=0,
        masterpoint_multiplier="1.00",
    )
    if new:
        b.fill(ev, 5)
    ev, new = b.event(
        mbsz,
        "Szenior páros verseny",
        b.date(y, 9, 20),
        club=szbe,
        event_class=E.CLUB,
        format=F.PAIRS,
        age_restriction=Event.Age.SENIOR,
        boards=27,
        sessions=(("", 0, 14, 0),),
        entry_fee=2000,
        masterpoint_multiplier="1.00",
    )
    if new:
        b.fill(ev, 12)
    # Club masterpoint events through the year; the coming ones are open for entry.
    for club, month_days in ((bbe, (1, 3, 5, 9, 11)), (dbc, (2, 6, 10)), (szbe, (4, 8))):
        for month in month_days:
            ev, new = b.event(
                mbsz,
                f"{club.short_name} havi klubverseny ({month}.)",
                b.date(y, month, 12),
                club=club,
                event_class=E.CLUB,
                format=F.PAIRS,
                movement="Mitchell",
                boards=24,
                sessions=(("", 0, 18, 0),),
                entry_fee=1500,
                junior_entry_fee=800,
                masterpoint_multiplier="1.00",
            )
            if new:
                b.fill(ev, 8 + month % 5, no_shows=1 if month % 2 else 0)
    player = getattr(b.player_user, "person", None)
    xmas = today + datetime.timedelta(days=13)
    ev, new = b.event(
        mbsz,
        "BBE Karácsonyi páros",
        xmas,
        club=bbe,
        event_class=E.CLUB,
        format=F.PAIRS,
        movement="Howell",
        boards=26,
        sessions=(("", 0, 17, 0),),
        entry_fee=2000,
        junior_entry_fee=1000,
        masterpoint_multiplier="1.00",
        capacity=12,
        entry_deadline=at(xmas - datetime.timedelta(days=1), 20),
        divisions=("A csoport", "B csoport"),
    )
    if new:
        # The demo player's partner entered them both: the confirmation waits on "My entries".
        partner = [p for p in b.people["mbsz"] if p != player and p.gender == Person.FEMALE][:1]
        b.fill(ev, 12, pending=1, waiting=2, first=partner + ([player] if player else []))
    ev, new = b.event(
        mbsz,
        "Mikulás egyéni verseny",
        today + datetime.timedelta(days=6),
        club=bbe,
        event_class=E.CLUB,
        format=F.INDIVIDUAL,
        boards=24,
        sessions=(("", 0, 18, 0),),
        entry_fee=1500,
        masterpoint_multiplier="0.50",
    )
    if new:
        b.fill(ev, 16, first=[player] if player else None)
    ev, new = b.event(
        mbsz,
        "Debreceni Téli Csapatverseny",
        today + datetime.timedelta(days=20),
        club=dbc,
        event_class=E.REGIONAL,
        format=F.TEAMS,
        movement="Svájci rendszer, 6 forduló",
        boards=48,
        sessions=(("", 0, 10, 0),),
        entry_fee=3000,
        masterpoint_multiplier="1.50",
        capacity=16,
    )
    if new:
        b.fill(ev, 6)
    ev, new = b.event(
        mbsz,
        "BBE Újévi páros",
        b.date(n, 1, 10),
        club=bbe,
        event_class=E.CLUB,
        format=F.PAIRS,
        boards=24,
        sessions=(("", 0, 16, 0),),
        entry_fee=2000,
        masterpoint_multiplier="1.00",
    )
    if new:
        b.fill(ev, 4)
    b.event(
        mbsz,
        "BBE Tavaszi csapatverseny",
        b.date(n, 3, 28),
        club=bbe,
        status=S.DRAFT,
        event_class=E.CLUB,
        format=F.TEAMS,
        entry_fee=2500,
    )
    b.event(
        mbsz,
        "Szegedi Nyári Páros",
        b.date(y, 6, 27),
        club=szbe,
        status=S.CANCELLED,
        event_class=E.CLUB,
        format=F.PAIRS,
        boards=24,
        sessions=(("", 0, 15, 0),),
        entry_fee=1500,
        masterpoint_multiplier="1.00",
    )


# The demo regional qualifier (issue 6): about 45 players over 10 rounds. 47 entries less one no-show leaves
# 46 at the tables, so every round has a bye, which is what `demo.ulti` looks for in the field it plays.
DEMO_QUALIFIER = ("duna-tisza", 1)
DEMO_QUALIFIER_ENTRIES = 47


def _qualifier_field(region_code, number):
    """Entries of a qualifier of this year: the demo qualifier is the large one, the others 29-37."""
    if (region_code, number) == DEMO_QUALIFIER:
        return DEMO_QUALIFIER_ENTRIES
    return 27 + number * 2


def _ulti(b, y, n, today):
    mausz = b.mausz
    regions = {r.code: r for r in Region.objects.filter(federation=mausz)}
    hosts = {
        "duna-tisza": ["BUK", "SZUE", "KUK", "EUBK", "SZFUE"],
        "felso-tisza": ["NYUK", "DUE", "MUT", "TUK", "NYUK"],
    }
    qualifier_sessions = (("1-5. forduló", 0, 9, 0), ("6-10. forduló", 0, 13, 30))
    for code, shorts in hosts.items():
        region = regions[code]
        for number, short in enumerate(shorts, start=1):
            club = b.club(short)
            ev, new = b.event(
                mausz,
                f"NUB {number}. selejtező – {region.name}",
                b.date(y, number + 1, 8 + number),
                club=club,
                event_class=E.NUB_QUALIFIER,
                format=F.ULTI_INDIVIDUAL,
                region=region,
                season=y,
                qualifier_number=number,
                movement="Svájci rendszer (MaRabU), 10 forduló × 12 leosztás",
                boards=120,
                sessions=qualifier_sessions,
                earns_rating=True,
                members_only=True,
                prizes="Oklevél az 1-3. helyezetteknek; ranglistapontok.",
            )
            if new:
                b.fill(ev, _qualifier_field(code, number), no_shows=number % 2)
        for number in (1, 2):
            b.event(
                mausz,
                f"NUB {number}. selejtező – {region.name}",
                b.date(n, number + 1, 8 + number),
                club=b.club(shorts[number - 1]),
                status=S.PROPOSED,
                event_class=E.NUB_QUALIFIER,
                format=F.ULTI_INDIVIDUAL,
                region=region,
                season=n,
                qualifier_number=number,
                boards=120,
                sessions=qualifier_sessions,
                earns_rating=True,
                members_only=True,
            )
        ev, new = b.event(
            mausz,
            f"Társasági ulti csapatverseny – {region.name}",
            b.date(y, 6, 14 if code == "duna-tisza" else 21),
            club=b.club(shorts[0]),
            event_class=E.TEAM_REGIONAL,
            format=F.ULTI_TEAM,
            region=region,
            season=y,
            movement="A-B-C vonalak, 8 forduló",
            boards=96,
            sessions=(("", 0, 9, 30),),
            capacity=15,
            prizes="Kupa az 1-3. helyezetteknek.",
        )
        if new:
            b.fill(ev, 7 if code == "felso-tisza" else 9)
    for number, short, month in ((1, "BUK", 9), (2, "SZUE", 10)):
        ev, new = b.event(
            mausz,
            f"NUB {number}. elődöntő",
            b.date(y, month, 13),
            club=b.club(short),
            event_class=E.NUB_SEMIFINAL,
            format=F.ULTI_INDIVIDUAL,
            season=y,
            qualifier_number=number,
            boards=120,
            sessions=qualifier_sessions,
            earns_rating=True,
            members_only=True,
            capacity=60,
        )
        if new:
            b.fill(ev, 48)
    ev, new = b.event(
        mausz,
        "NUB döntő",
        b.date(y, 11, 15),
        club=b.club("BUK"),
        event_class=E.NUB_FINAL,
        format=F.ULTI_INDIVIDUAL,
        season=y,
        boards=120,
        sessions=(("Körmérkőzés", 0, 9, 0),),
        earns_rating=True,
        members_only=True,
        capacity=21,
        entry_fee=0,
        prizes="Kupa és oklevél; a bajnok címe.",
    )
    if new:
        b.fill(ev, 21)
    ev, new = b.event(
        mausz,
        "Sport Ulti Nemzeti Bajnokság",
        b.date(y, 8, 22),
        club=b.club("SZUE"),
        end_date=b.date(y, 8, 23),
        event_class=E.SPORT_ULTI,
        format=F.SPORT_ULTI,
        season=y,
        movement="2 × 15 fős csoport, 5 forduló; döntő 21 fő",
        boards=90,
        sessions=(("Selejtező", 0, 9, 0), ("Döntő", 1, 9, 0)),
        entry_fee=3000,
        capacity=15,
        prizes="Kupa az 1-3. helyezetteknek; mesterpontok.",
    )
    if new:
        b.fill(ev, 10)
    ev, new = b.event(
        mausz,
        "Szolnoki Értékszámszerző Ulti Verseny",
        b.date(y, 10, 25),
        club=b.club("SZUE"),
        event_class=E.RATING,
        format=F.ULTI_INDIVIDUAL,
        rule_set="szolnok",
        earns_rating=True,
        movement="Svájci rendszer, 6 forduló × 18 leosztás",
        boards=108,
        sessions=(("", 0, 9, 0),),
        entry_fee=2000,
    )
    if new:
        b.fill(ev, 24, no_shows=1)
    ev, new = b.event(
        mausz,
        "BUK Évzáró Értékszámszerző Verseny",
        today + datetime.timedelta(days=14),
        club=b.club("BUK"),
        event_class=E.RATING,
        format=F.ULTI_INDIVIDUAL,
        earns_rating=True,
        boards=120,
        sessions=(("", 0, 9, 0),),
        entry_fee=2500,
        capacity=30,
    )
    if new:
        b.fill(ev, 15)
    b.event(
        mausz,
        "Szolnoki Újévi Ulti Kupa",
        b.date(n, 1, 17),
        club=b.club("SZUE"),
        status=S.DRAFT,
        event_class=E.RATING,
        format=F.ULTI_INDIVIDUAL,
        rule_set="szolnok",
        entry_fee=2000,
    )
