"""Hostile ulti round-result uploads."""

import datetime
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.models import Role
from tournaments.models import Entry, EntryMember, Event
from ulti.models import RoundUpload
from ulti.services import UltiError
from ulti.services import draw as ulti_draw
from ulti.services import setup as ulti_setup
from ulti.services import uploads as ulti_uploads

from .helpers import (
    DEFECT_BOARD,
    INJECTIONS,
    SCRIPT,
    accepted_with_change,
    as_bytes,
    assert_safe,
    errors_shown,
    garbage,
    next_name,
    refused_cleanly,
    snapshot,
)

pytestmark = pytest.mark.django_db


# --- ulti: round results --------------------------------------------------------------------------------


@pytest.fixture
def ulti(mausz, ulti_club, make_person, make_user):
    """A published round of 6 players: tables 1 and 2."""
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title=f"Ellenséges ulti {next_name()}",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 7, 4),
        status="approved",
        rule_set="mausz",
    )
    for n in range(6):
        entry = Entry.objects.create(event=event)
        # Every player's last name carries a script: the upload page lists them all, escaped.
        person = make_person(mausz, ulti_club, last_name=f"Teszt{n}{SCRIPT}")
        EntryMember.objects.create(entry=entry, person=person)
    director = make_user(f"td-ulti{event.pk}@example.hu", kind=Role.DIRECTOR, event=event)
    group = ulti_setup.start_event(event, director).groups.get()
    rnd = ulti_draw.publish_round(ulti_draw.generate_round(group, director), director)
    tables = {
        t.number: [s.participant for s in t.seats.select_related("participant").order_by("position")]
        for t in rnd.tables.all()
    }
    return SimpleNamespace(event=event, director=director, round=rnd, tables=tables)


def ulti_csv(w, amounts=((300, -100, -200), (50, 50, -100)), header=True, extra=""):
    lines = ["asztal;játékos;forint"] if header else []
    for (number, players), forints in zip(sorted(w.tables.items()), amounts, strict=True):
        lines += [f"{number};{p.number};{f}" for p, f in zip(players, forints, strict=True)]
    return "\n".join(lines) + "\n" + extra


ULTI_CORPUS = [
    ("non-zero-sum", lambda w: ulti_csv(w, ((300, -100, -190), (50, 50, -100))), "Table 1", "sum to +10"),
    (
        "non-zero-sum-huge",
        lambda w: ulti_csv(w, ((10**30, -100, -200), (50, 50, -100))),
        "Table 1",
        "larger than any game",
    ),
    *[
        (
            f"injection-{n}-player",
            (lambda w, v=value: ulti_csv(w).replace(";1;", f";{v};", 1)),
            "Line",
            "unknown",
        )
        for n, value in enumerate(INJECTIONS)
    ],
    *[
        (
            f"injection-{n}-forint",
            (lambda w, v=value: ulti_csv(w).replace(";300", f";{v}", 1)),
            "Line 2",
            "forint",
        )
        for n, value in enumerate(INJECTIONS)
    ],
    (
        "duplicate-row",
        lambda w: ulti_csv(w, extra=ulti_csv(w, header=False).splitlines()[0]),
        "Line 8",
        "twice",
    ),
    ("negative-table", lambda w: ulti_csv(w).replace("\n1;", "\n-1;", 1), "Line 2", "table number"),
    ("unknown-table", lambda w: ulti_csv(w).replace("\n2;", "\n99;"), "Table 99", "no such table"),
    ("missing-table", lambda w: "\n".join(ulti_csv(w).splitlines()[:4]), "Table 2", "no results"),
    ("truncated-line", lambda w: ulti_csv(w).rstrip("\n").rsplit(";", 1)[0], "Line 7", "expected table"),
    ("script-player", lambda w: ulti_csv(w).replace(";1;", f";{SCRIPT};", 1), "Line", "unknown player"),
    ("script-forint", lambda w: ulti_csv(w).replace(";300", f";{SCRIPT}", 1), "Line 2", "forint"),
    ("script-table", lambda w: ulti_csv(w).replace("\n1;", f"\n{SCRIPT};", 1), "Line 2", "table number"),
    ("empty", lambda w: "", "", "empty"),
    ("utf16", lambda w: ulti_csv(w).encode("utf-16"), "", "UTF-8"),
    ("garbage", lambda w: garbage(6), "", "UTF-8"),
]


@pytest.mark.parametrize("case, build, where, expected", ULTI_CORPUS, ids=[c[0] for c in ULTI_CORPUS])
def test_ulti_page_refuses_and_writes_nothing(client, ulti, case, build, where, expected):
    client.force_login(ulti.director)
    before = snapshot()
    response = client.post(
        reverse("ulti_upload", args=[ulti.round.pk]),
        {"csv": "1", "file": SimpleUploadedFile(f"{case}.csv", as_bytes(build(ulti))), "note": SCRIPT},
    )
    body = assert_safe(response)
    assert response.status_code == 200
    assert where in body and expected in body, errors_shown(body)
    assert snapshot() == before


@pytest.mark.parametrize("case, build, where, expected", ULTI_CORPUS, ids=[c[0] for c in ULTI_CORPUS])
def test_ulti_service_refuses_and_writes_nothing(ulti, case, build, where, expected):
    content = build(ulti)
    if isinstance(content, bytes):
        pytest.skip("decoding is the view's: the service takes text")
    before = snapshot()
    with pytest.raises(UltiError) as refused:
        ulti_uploads.upload_csv(ulti.round, content, user=ulti.director, file_name=f"{SCRIPT}.csv")
    assert any(where in m and expected in m for m in refused.value.messages) or any(
        expected in m for m in refused.value.messages
    )
    assert snapshot() == before


def test_ulti_api_refuses_with_400(client, ulti):
    client.force_login(ulti.director)
    before = snapshot()
    for text in (
        ulti_csv(ulti, ((300, -100, -190), (50, 50, -100))),
        ulti_csv(ulti).replace(";1;", f";{SCRIPT};"),
    ):
        response = client.post(
            f"/api/v1/ulti/rounds/{ulti.round.pk}/upload/", {"csv": text}, content_type="application/json"
        )
        assert response.status_code == 400 and response.json()["errors"], response.content[:300]
    assert snapshot() == before


def test_ulti_web_form_refuses_hostile_forints(client, ulti):
    client.force_login(ulti.director)
    data = {"note": SCRIPT}
    for number, players in ulti.tables.items():
        for p, value in zip(players, (SCRIPT, "=1+1", "100"), strict=True):
            data[f"f{ulti.round.tables.get(number=number).pk}_{p.pk}"] = value
    before = snapshot()
    response = client.post(reverse("ulti_upload", args=[ulti.round.pk]), data)
    body = assert_safe(response)
    assert response.status_code == 200 and "Table 1" in body and "is not a forint amount" in body
    assert snapshot() == before
    assert not RoundUpload.objects.filter(round=ulti.round).exists()


# --- real defects, pinned ---


def _ulti_post(client, w, data):
    client.force_login(w.director)
    return client.post(reverse("ulti_upload", args=[w.round.pk]), {"csv": "1", **data})


def test_fixed_defect_ulti_csv_superscript_table(client, ulti):
    before = snapshot()
    content = ulti_csv(ulti).replace("\n1;", f"\n{DEFECT_BOARD};", 1)
    refused_cleanly(_ulti_post(client, ulti, {"file": SimpleUploadedFile("x.csv", content.encode())}), before)


@pytest.mark.parametrize("variant", ["lone-cr", "oversized-cell"])
def test_fixed_defect_ulti_csv_csv_error(client, ulti, variant):
    before = snapshot()
    content = ulti_csv(ulti)
    content = content.replace("\n", "\r") if variant == "lone-cr" else content + "1;1;" + "4" * 200_000
    check = accepted_with_change if variant == "lone-cr" else refused_cleanly
    check(_ulti_post(client, ulti, {"file": SimpleUploadedFile("x.csv", content.encode())}), before)


def test_fixed_defect_ulti_huge_zero_sum_forints(client, ulti):
    before = snapshot()
    content = ulti_csv(ulti, ((10**30, -(10**30), 0), (50, 50, -100)))
    refused_cleanly(_ulti_post(client, ulti, {"file": SimpleUploadedFile("x.csv", content.encode())}), before)


def test_fixed_defect_ulti_sheet_superscript_seat(client, ulti):
    table = ulti.round.tables.get(number=1)
    client.force_login(ulti.director)
    before = snapshot()
    response = client.post(
        reverse("ulti_sheet", args=[table.pk]), {"d1_bid": "passz", "d1_dealer": DEFECT_BOARD, "note": SCRIPT}
    )
    refused_cleanly(response, before)
