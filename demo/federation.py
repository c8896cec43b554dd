"""Demo data of the federation core: federations, regions, clubs, ~500 people, licences, demo logins.

Deterministic (fixed random seed) and idempotent: every object is looked up by a natural key first.
"""

import datetime
import random
import zlib

from django.contrib.auth import get_user_model
from django.db import transaction

from federation.models import Club, County, Federation, Licence, Membership, Person, Region, Role, Suspension
from tournaments.models import Event

DEMO_PASSWORD = "versenyportal"

REGIONS = {
    "duna-tisza": (
        "Duna-Tisza köz",
        [
            "Budapest",
            "Fejér",
            "Somogy",
            "Veszprém",
            "Pest",
            "Nógrád",
            "Heves",
            "Bács-Kiskun",
            "Csongrád",
            "Békés",
            "Jász-Nagykun-Szolnok",
        ],
    ),
    "felso-tisza": ("Felső-Tisza", ["Borsod-Abaúj-Zemplén", "Hajdú-Bihar", "Szabolcs-Szatmár-Bereg"]),
}
OTHER_COUNTIES = ["Baranya", "Győr-Moson-Sopron", "Komárom-Esztergom", "Tolna", "Vas", "Zala"]

BRIDGE_CLUBS = [
    ("Budapesti Bridzs Egyesület", "BBE", "Budapest", "Budapest", "1051", "Október 6. utca 12."),
    ("Pannónia Bridzs Klub", "Pannónia", "Budapest", "Budapest", "1114", "Bartók Béla út 44."),
    ("Debreceni Bridzs Club", "DBC", "Hajdú-Bihar", "Debrecen", "4024", "Piac utca 20."),
    ("Szegedi Bridzs Egyesület", "SZBE", "Csongrád", "Szeged", "6720", "Kárász utca 5."),
    ("Pécsi Bridzs Klub", "PBK", "Baranya", "Pécs", "7621", "Király utca 18."),
    ("Győri Bridzs Egyesület", "GYBE", "Győr-Moson-Sopron", "Győr", "9021", "Baross Gábor út 9."),
    ("Miskolci Bridzs Kör", "MBK", "Borsod-Abaúj-Zemplén", "Miskolc", "3525", "Széchenyi utca 30."),
    ("Balatoni Bridzs Klub", "BalBK", "Veszprém", "Balatonfüred", "8230", "Blaha Lujza utca 3."),
    ("Kecskeméti Bridzs Egyesület", "KBE", "Bács-Kiskun", "Kecskemét", "6000", "Rákóczi út 7."),
    ("Soproni Bridzs Klub", "SBK", "Győr-Moson-Sopron", "Sopron", "9400", "Várkerület 21."),
]
ULTI_CLUBS = [
    ("Budapesti Ulti Klub", "BUK", "Budapest", "Budapest", "1072", "Nagy Diófa utca 4."),
    ("Szolnoki Ulti Egyesület", "SZUE", "Jász-Nagykun-Szolnok", "Szolnok", "5000", "Kossuth tér 2."),
    ("Kecskeméti Ulti Kör", "KUK", "Bács-Kiskun", "Kecskemét", "6000", "Kisfaludy utca 8."),
    ("Egri Ulti Baráti Kör", "EUBK", "Heves", "Eger", "3300", "Dobó István tér 6."),
    ("Békéscsabai Ulti Klub", "BUKcs", "Békés", "Békéscsaba", "5600", "Andrássy út 15."),
    ("Székesfehérvári Ulti Egyesület", "SZFUE", "Fejér", "Székesfehérvár", "8000", "Fő utca 11."),
    ("Nyíregyházi Ulti Klub", "NYUK", "Szabolcs-Szatmár-Bereg", "Nyíregyháza", "4400", "Luther utca 3."),
    ("Debreceni Ulti Egyesület", "DUE", "Hajdú-Bihar", "Debrecen", "4025", "Hatvan utca 2."),
    ("Miskolci Ulti Társaság", "MUT", "Borsod-Abaúj-Zemplén", "Miskolc", "3530", "Kazinczy utca 9."),
    ("Tokaji Ulti Kör", "TUK", "Borsod-Abaúj-Zemplén", "Tokaj", "3910", "Rákóczi út 40."),
]

LAST_NAMES = [
    "Nagy",
    "Kovács",
    "Tóth",
    "Szabó",
    "Horváth",
    "Varga",
    "Kiss",
    "Molnár",
    "Németh",
    "Farkas",
    "Balogh",
    "Papp",
    "Takács",
    "Juhász",
    "Lakatos",
    "Mészáros",
    "Oláh",
    "Simon",
    "Rácz",
    "Fekete",
    "Szilágyi",
    "Török",
    "Fehér",
    "Balázs",
    "Gál",
    "Kis",
    "Szűcs",
    "Kocsis",
    "Orsós",
    "Pintér",
    "Fodor",
    "Szalai",
    "Sipos",
    "Magyar",
    "Lukács",
    "Gulyás",
    "Biró",
    "Király",
    "Katona",
    "László",
    "Jakab",
    "Bogdán",
    "Balog",
    "Sándor",
    "Boros",
    "Fazekas",
    "Kelemen",
    "Antal",
    "Somogyi",
    "Orosz",
    "Fülöp",
    "Veres",
    "Budai",
    "Vincze",
    "Hegedűs",
    "Deák",
    "Pap",
    "Bálint",
    "Illés",
    "Pál",
    "Vass",
    "Szőke",
    "Fábián",
    "Vörös",
    "Lengyel",
    "Bognár",
    "Bodnár",
    "Szücs",
    "Hajdu",
    "Halász",
    "Jónás",
    "Kozma",
    "Máté",
    "Székely",
    "Gáspár",
    "Pásztor",
    "Bakos",
    "Dudás",
]
MALE_NAMES = [
    "László",
    "István",
    "József",
    "János",
    "Zoltán",
    "Sándor",
    "Gábor",
    "Ferenc",
    "Attila",
    "Péter",
    "Tamás",
    "Zsolt",
    "Tibor",
    "András",
    "Csaba",
    "Imre",
    "Lajos",
    "György",
    "Balázs",
    "Gyula",
    "Mihály",
    "Róbert",
    "Károly",
    "Béla",
    "Dávid",
    "Dániel",
    "Ádám",
    "Krisztián",
    "Miklós",
    "Norbert",
    "Bence",
    "Máté",
    "Levente",
]
FEMALE_NAMES = [
    "Mária",
    "Erzsébet",
    "Katalin",
    "Éva",
    "Ilona",
    "Anna",
    "Zsuzsanna",
    "Margit",
    "Judit",
    "Ágnes",
    "Andrea",
    "Ildikó",
    "Erika",
    "Krisztina",
    "Irén",
    "Eszter",
    "Gabriella",
    "Edit",
    "Szilvia",
    "Anita",
    "Mónika",
    "Tímea",
    "Nikolett",
    "Réka",
    "Zsófia",
    "Dóra",
    "Viktória",
    "Klára",
    "Piroska",
    "Rozália",
    "Hanna",
    "Lili",
]

# (login, role kind, scope) - documented in the README.
DEMO_LOGINS = [
    ("admin@demo.hu", None, None),
    ("staff.mbsz@demo.hu", Role.FEDERATION_STAFF, "mbsz"),
    ("staff.mausz@demo.hu", Role.FEDERATION_STAFF, "mausz"),
    ("klub.bridzs@demo.hu", Role.CLUB_ADMIN, "BBE"),
    ("klub.ulti@demo.hu", Role.CLUB_ADMIN, "SZUE"),
    ("vezeto@demo.hu", Role.DIRECTOR, "demo-event"),
    ("fellebbezes@demo.hu", Role.APPEALS, "demo-event"),
    ("etika@demo.hu", Role.ETHICS, "mbsz"),
    ("fegyelmi@demo.hu", Role.DISCIPLINARY, "mbsz"),
    ("jatekos@demo.hu", None, "player"),
]


def demo_director():
    """The demo tournament director (the superuser when the demo logins are not there): the bridge and ulti
    demo events are his."""
    users = get_user_model().objects
    return users.filter(username="vezeto@demo.hu").first() or users.filter(is_superuser=True).first()


def members(federation, *, newest_first=False) -> list[Person]:
    """The federation's active members without a suspension, in member-number order (or the newest first)."""
    found = (
        Membership.objects.filter(federation=federation, is_active=True, person__suspensions__isnull=True)
        .select_related("person")
        .order_by("-member_number" if newest_first else "member_number")
    )
    return [m.person for m in found]


def _clubs(federation, rows, counties):
    clubs = []
    for name, short, county_name, city, postcode, address in rows:
        county = counties[county_name]
        region = county.region if federation.game == Federation.ULTI else None
        club, _ = Club.objects.update_or_create(
            federation=federation,
            name=name,
            defaults=dict(
                short_name=short,
                county=county,
                region=region,
                city=city,
                postcode=postcode,
                address=address,
                contact_name="",
                email=f"info@{short.lower()}.example.hu",
                phone=f"+36 1 555 {zlib.crc32(short.encode()) % 10000:04d}",
            ),
        )
        clubs.append(club)
    return clubs


@transaction.atomic
def seed(out=None):
    rng = random.Random(20261130)
    mbsz, _ = Federation.objects.update_or_create(
        code="mbsz", defaults=dict(name="Magyar Bridzs Szövetség", short_name="MBSz", game=Federation.BRIDGE)
    )
    mausz, _ = Federation.objects.update_or_create(
        code="mausz", defaults=dict(name="Magyar Ultiszövetség", short_name="MAUSZ", game=Federation.ULTI)
    )

    counties = {}
    for code, (name, county_names) in REGIONS.items():
        region, _ = Region.objects.update_or_create(federation=mausz, code=code, defaults={"name": name})
        for county_name in county_names:
            counties[county_name], _ = County.objects.update_or_create(
                name=county_name, defaults={"region": region}
            )
    for county_name in OTHER_COUNTIES:
        counties[county_name], _ = County.objects.get_or_create(name=county_name)

    bridge_clubs = _clubs(mbsz, BRIDGE_CLUBS, counties)
    ulti_clubs = _clubs(mausz, ULTI_CLUBS, counties)

    today = datetime.date.today()
    if not Person.objects.exists():
        for i in range(500):
            gender = Person.FEMALE if rng.random() < 0.4 else Person.MALE
            first = rng.choice(FEMALE_NAMES if gender == Person.FEMALE else MALE_NAMES)
            # Ages 12-88, weighted towards the older players both games attract.
            age_years = min(88, max(12, int(rng.gauss(55, 17))))
            birth = datetime.date(today.year - age_years, rng.randint(1, 12), rng.randint(1, 28))
            person = Person.objects.create(
                first_name=first,
                last_name=rng.choice(LAST_NAMES),
                birth_date=birth,
                gender=gender,
                citizenship="HU" if rng.random() < 0.97 else rng.choice(["AT", "RO", "SK", "DE"]),
                resident_in_hungary=rng.random() < 0.98,
                email=f"player{i + 1}@example.hu",
                phone=f"+36 30 {rng.randint(100, 999)} {rng.randint(1000, 9999)}",
            )
            plays = rng.random()
            if plays < 0.55 or i < 5:
                Membership.objects.create(
                    person=person,
                    federation=mbsz,
                    member_number=f"B{10001 + i}",
                    club=rng.choice(bridge_clubs),
                    joined_on=birth.replace(year=birth.year + 18),
                )
            if plays >= 0.45 or i < 5:
                club = rng.choice(ulti_clubs)
                Membership.objects.create(
                    person=person,
                    federation=mausz,
                    member_number=f"U{20001 + i}",
                    club=club,
                    joined_on=birth.replace(year=birth.year + 18),
                )
                if rng.random() < 0.75:
                    Licence.objects.create(
                        person=person, federation=mausz, year=today.year, number=f"L{today.year}-{i + 1:04d}"
                    )
                if rng.random() < 0.6:
                    Licence.objects.create(
                        person=person,
                        federation=mausz,
                        year=today.year - 1,
                        number=f"L{today.year - 1}-{i + 1:04d}",
                    )
        suspended = Membership.objects.filter(federation=mbsz).order_by("member_number")[7].person
        Suspension.objects.create(
            person=suspended,
            federation=mbsz,
            starts_on=today - datetime.timedelta(days=30),
            ends_on=today + datetime.timedelta(days=180),
            reason="Sportszerűtlen magatartás (demo)",
            decided_by="MBSz Fegyelmi Bizottság",
        )

    _demo_logins(mbsz, mausz)
    if out:
        out.write(
            f"federation: {Club.objects.count()} clubs, {Person.objects.count()} people, "
            f"{Membership.objects.count()} memberships, {Licence.objects.count()} licences"
        )


def _demo_logins(mbsz, mausz):
    User = get_user_model()
    feds = {"mbsz": mbsz, "mausz": mausz}
    demo_event, _ = Event.objects.get_or_create(
        federation=mbsz,
        title="Demo páros verseny",
        defaults=dict(
            club=Club.objects.get(short_name="BBE"),
            format=Event.Format.PAIRS,
            start_date=datetime.date.today() + datetime.timedelta(days=14),
            status=Event.Status.APPROVED,
        ),
    )
    for email, kind, scope in DEMO_LOGINS:
        user, created = User.objects.get_or_create(username=email, defaults={"email": email})
        if created:
            user.set_password(DEMO_PASSWORD)
        if email == "admin@demo.hu":
            user.is_staff = user.is_superuser = True
        if kind == Role.FEDERATION_STAFF:
            user.is_staff = True  # may open the Django admin; object rights still come from the role
        user.save()
        if kind in (Role.FEDERATION_STAFF, Role.ETHICS, Role.DISCIPLINARY):
            Role.objects.get_or_create(user=user, kind=kind, federation=feds[scope])
        elif kind == Role.CLUB_ADMIN:
            Role.objects.get_or_create(user=user, kind=kind, club=Club.objects.get(short_name=scope))
        elif kind in (Role.DIRECTOR, Role.APPEALS):
            Role.objects.get_or_create(user=user, kind=kind, event=demo_event)
        if scope == "player" and not Person.objects.filter(user=user).exists():
            person = (
                Membership.objects.filter(
                    federation=mbsz, person__user__isnull=True, person__suspensions__isnull=True
                )
                .order_by("member_number")[0]
                .person
            )
            person.user = user
            person.save(update_fields=["user"])
