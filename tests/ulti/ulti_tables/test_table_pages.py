"""Ulti table entry pages (issue #18) per role: the table codes and the control room for the event's director
and MAUSZ staff only; the phone page for anybody holding a code (no account), answering JSON to its script;
guessed codes throttled and locked out."""

import json

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from tests.qr_reading import assert_each_card_encodes_its_address
from ulti.models import TableCode, TableEntry

from .conftest import fill, key, passz

pytestmark = pytest.mark.django_db

MAY = {"director", "staff"}
MAY_NOT = {"other_director", "player", "anonymous"}


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _refused(response):
    return response.status_code in (403, 404) or (
        response.status_code == 302 and "/login" in response["Location"]
    )


@pytest.mark.parametrize("name", ["ulti_table_codes", "ulti_control_room"])
def test_director_pages_per_role(clients, rnd, codes, name):
    url = reverse(name, args=[rnd.pk])
    for role in MAY:
        response = clients[role].get(url)
        assert response.status_code == 200, role
        assert codes[1].code in response.content.decode() or name == "ulti_control_room"
    for role in MAY_NOT:
        assert _refused(clients[role].get(url)), role


def test_making_codes_per_role(clients, rnd):
    url = reverse("ulti_table_codes", args=[rnd.pk])
    for role in MAY_NOT:
        assert _refused(clients[role].post(url)), role
    assert not TableCode.objects.exists()
    assert clients["director"].post(url).status_code == 302
    assert TableCode.objects.filter(table__round=rnd).count() == 2
    page = clients["director"].get(url).content.decode()
    for code in TableCode.objects.all():
        assert code.code in page and reverse("ulti_table", args=[code.code]) in page


def test_the_control_room_shows_progress_and_disputes(clients, rnd, codes):
    code = codes[1]
    head = fill(code, deals=12)
    from ulti.services import table_entry

    seats = table_entry.state_of(code).seats
    table_entry.send(code, key=key(), kind="dispute", seat=seats[2].pk, based_on=head.pk, note="rossz összeg")
    fill(codes[2], deals=3)
    page = clients["director"].get(reverse("ulti_control_room", args=[rnd.pk])).content.decode()
    assert 'id="table-1" data-status="disputed"' in page
    assert "rossz összeg" in page
    assert 'id="table-2" data-status="playing"' in page and "3 / 12" in page


def test_the_phone_page_needs_no_account(codes):
    code = codes[1]
    fill(code, deals=2)
    page = Client().get(reverse("ulti_table", args=[code.code]))
    assert page.status_code == 200
    text = page.content.decode()
    data = json.loads(text.split('id="ulti-table-data" type="application/json">')[1].split("</script>")[0])
    assert [d["number"] for d in data["deals"]] == [1, 2] and data["required"] == 12
    assert {b["name"] for b in data["bids"]} >= set(data["quick"])
    assert "Passz" in [b["label"] for b in data["bids"]]
    # The picker asks one kontra per part where a kontra binds both defenders (I.3 (3)): the page says where,
    # from the engine's own rule, with the plain form's line.
    both = {b["name"]: b["kontra_binds_both"] for b in data["bids"]}
    assert both["ulti"] and both["durchmars"] and not both["betli"] and not both["no-trump durchmars"]
    assert "mindkét védőre érvényes" in data["words"]["kontra_rules"]["both"]
    assert "csak a kontrázóra érvényes" in data["words"]["kontra_rules"]["own"]


def test_the_phone_posts_a_deal_and_meets_a_conflict(codes):
    code = codes[1]
    url = reverse("ulti_table", args=[code.code])
    phone = Client()
    phone.get(url)
    fields = {"kind": "deal", "number": "1", "based_on": "", "record": json.dumps(passz(code))}
    ok = phone.post(url, {**fields, "key": key()}, HTTP_ACCEPT="application/json")
    assert ok.status_code == 200 and ok.json()["status"] == "ok"
    other = {**fields, "key": key(), "record": json.dumps(passz(code, 1, won=False))}
    conflict = phone.post(url, other, HTTP_ACCEPT="application/json")
    assert conflict.status_code == 409 and conflict.json()["current"]["number"] == 1
    bad = phone.post(url, {**fields, "key": key(), "record": "{}"}, HTTP_ACCEPT="application/json")
    assert bad.status_code == 400 and bad.json()["status"] == "refused"
    assert TableEntry.objects.filter(code=code).count() == 1


def test_the_start_page_leads_to_the_table(codes):
    code = codes[2]
    response = Client().get(reverse("ulti_table_start"), {"code": code.code.lower()})
    assert response.status_code == 302 and response["Location"] == reverse("ulti_table", args=[code.code])
    assert Client().get(reverse("ulti_table_start"), {"code": "XXXXXX"}).status_code == 404


@override_settings(TABLE_CODE_MISSES=3)
def test_guessed_codes_lock_the_address_out(codes):
    guesser = Client()
    for guess in ("AAAAAA", "CCCCCC", "DDDDDD", "EEEEEE"):
        assert guesser.get(reverse("ulti_table", args=[guess])).status_code == 404
    locked = guesser.get(reverse("ulti_table", args=[codes[1].code]))
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0


@override_settings(TABLE_ENTRY_THROTTLE_PER_MINUTE=3)
def test_too_many_requests_are_throttled(codes):
    phone = Client()
    url = reverse("ulti_table", args=[codes[1].code])
    statuses = [phone.get(url).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_each_table_card_carries_the_qr_code_of_its_own_address(clients, rnd, codes):
    text = clients["director"].get(reverse("ulti_table_codes", args=[rnd.pk])).content.decode()
    urls = ["http://testserver" + reverse("ulti_table", args=[c.code]) for c in codes.values()]
    assert len(urls) >= 2
    assert_each_card_encodes_its_address(text, urls)
