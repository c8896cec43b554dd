"""The table entry pages (issue #18): the phone page at every role (its code is the permission), a wrong
code a 404, throttling of guessed codes; the director's table codes and control room for the event's
director only."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from bridge.models import TableEntry
from bridge.services import table_entry
from tests.qr_reading import assert_each_card_encodes_its_address

from .conftest import key

pytestmark = pytest.mark.django_db


def phone(client, code):
    return client.get(reverse("bridge_table", args=[code.code]), HTTP_ACCEPT_LANGUAGE="hu")


def post(client, code, json=True, **data):
    headers = {"HTTP_ACCEPT": "application/json"} if json else {}
    return client.post(reverse("bridge_table", args=[code.code]), data, **headers)


def round_fields(code, board, **extra):
    now = table_entry.current_round(code)
    return {"round": now.round, "board": board, "ns": now.ns.pk, "ew": now.ew.pk, "key": key(), **extra}


@pytest.mark.parametrize("role", ["anonymous", "player", "director", "other_director", "staff"])
def test_the_phone_page_opens_with_the_code_for_every_role(clients, codes, role, settings):
    settings.LANGUAGE_CODE = "hu"
    response = phone(clients[role], codes[2])
    assert response.status_code == 200
    text = response.content.decode()
    assert 'id="board-3"' in text and 'id="board-4"' in text and 'id="board-5"' not in text
    now = table_entry.current_round(codes[2])
    assert str(now.ns.pair) in text and str(now.ew.pair) in text
    assert "table-entry.js" in text


def test_a_wrong_code_is_a_404(clients, codes):
    assert clients["anonymous"].get(reverse("bridge_table", args=["AAAAAA"])).status_code == 404
    assert clients["director"].get(reverse("bridge_table", args=["nope"])).status_code == 404


def test_guessing_codes_locks_the_address_out_even_for_a_real_code(clients, codes, settings):
    settings.TABLE_CODE_MISSES = 3
    anonymous = clients["anonymous"]
    for guess in ("AAAAAA", "CCCCCC", "DDDDDD", "EEEEEE"):
        anonymous.get(reverse("bridge_table", args=[guess]))
    response = phone(anonymous, codes[1])
    assert response.status_code == 429 and int(response["Retry-After"]) > 0


def test_the_page_is_throttled_per_address(clients, codes, settings):
    settings.TABLE_ENTRY_THROTTLE_PER_MINUTE = 2
    assert phone(clients["anonymous"], codes[1]).status_code == 200
    assert phone(clients["anonymous"], codes[1]).status_code == 200
    assert phone(clients["anonymous"], codes[1]).status_code == 429


def test_the_start_page_sends_a_typed_code_to_its_table(clients, codes):
    anonymous = clients["anonymous"]
    assert anonymous.get(reverse("bridge_table_start")).status_code == 200
    response = anonymous.get(reverse("bridge_table_start"), {"code": codes[3].code.lower()})
    assert response.status_code == 302 and response["Location"] == reverse(
        "bridge_table", args=[codes[3].code]
    )
    assert anonymous.get(reverse("bridge_table_start"), {"code": "AAAAAA"}).status_code == 404


def test_an_anonymous_phone_enters_and_east_confirms(clients, codes, session):
    anonymous = clients["anonymous"]
    phone(anonymous, codes[1])  # the CSRF cookie, as a phone gets it
    fields = round_fields(codes[1], 1, kind="result", contract="4♠ É =")
    entered = post(anonymous, codes[1], **fields)
    assert entered.status_code == 200 and entered.json()["status"] == "ok"
    assert entered.json()["entry"]["score"] == 420
    again = post(anonymous, codes[1], **fields)  # the offline queue's resend
    assert (
        again.json()["status"] == "repeated" and again.json()["entry"]["id"] == entered.json()["entry"]["id"]
    )
    result_id = entered.json()["entry"]["id"]
    confirmed = post(anonymous, codes[1], **round_fields(codes[1], 1, kind="confirm", based_on=result_id))
    assert confirmed.json()["status"] == "ok" and confirmed.json()["entry"]["applied"] is True
    assert TableEntry.objects.count() == 2
    text = phone(anonymous, codes[1]).content.decode()
    assert re.search(r'id="board-1" data-status="confirmed"', text)


def test_refusals_and_conflicts_answer_in_json_and_without_javascript(clients, codes):
    anonymous = clients["anonymous"]
    bad = post(
        anonymous,
        codes[1],
        **round_fields(codes[1], 1, kind="result", contract="8S", declarer="N", result="="),
    )
    assert bad.status_code == 400 and bad.json()["status"] == "refused" and bad.json()["messages"]
    other_table = post(
        anonymous,
        codes[1],
        **round_fields(codes[1], 3, kind="result", contract="3NT", declarer="N", result="="),
    )
    assert other_table.status_code == 400
    first = post(
        anonymous,
        codes[1],
        **round_fields(codes[1], 1, kind="result", contract="3NT", declarer="N", result="="),
    )
    second = post(
        anonymous,
        codes[1],
        **round_fields(codes[1], 1, kind="result", contract="4S", declarer="N", result="="),
    )
    assert second.status_code == 409 and second.json()["current"]["id"] == first.json()["entry"]["id"]
    plain = post(anonymous, codes[1], json=False, **round_fields(codes[1], 2, kind="result", contract="8S"))
    assert plain.status_code == 302
    assert not TableEntry.objects.filter(board=2).exists()


@pytest.mark.parametrize(
    "role,allowed",
    [("director", True), ("staff", True), ("other_director", False), ("player", False), ("anonymous", False)],
)
def test_the_table_codes_and_control_room_are_the_event_directors(clients, session, role, allowed):
    client = clients[role]
    for name in ("bridge_table_codes", "bridge_control_room"):
        response = client.get(reverse(name, args=[session.pk]))
        if allowed:
            assert response.status_code == 200, name
        elif role == "anonymous":
            assert response.status_code == 302 and "login" in response["Location"], name
        else:
            assert response.status_code == 403, name
    made = client.post(reverse("bridge_table_codes", args=[session.pk]))
    assert (session.table_codes.count() == 3) is allowed
    if allowed:
        assert made.status_code == 302
        text = client.get(reverse("bridge_table_codes", args=[session.pk])).content.decode()
        for code in session.table_codes.all():
            assert code.code in text and reverse("bridge_table", args=[code.code]) in text


def test_the_control_room_lists_a_disputed_board_with_the_correction_link(clients, codes, session):
    anonymous = clients["anonymous"]
    entered = post(
        anonymous,
        codes[2],
        **round_fields(codes[2], 3, kind="result", contract="2H", declarer="S", result="-1"),
    )
    post(
        anonymous,
        codes[2],
        **round_fields(codes[2], 3, kind="dispute", based_on=entered.json()["entry"]["id"]),
    )
    text = clients["director"].get(reverse("bridge_control_room", args=[session.pk])).content.decode()
    assert "board-status-disputed" in text
    assert reverse("bridge_traveller", args=[session.pk, 3]) in text


def test_each_table_card_carries_the_qr_code_of_its_own_address(clients, session):
    director = clients["director"]
    director.post(reverse("bridge_table_codes", args=[session.pk]))
    text = director.get(reverse("bridge_table_codes", args=[session.pk])).content.decode()
    urls = ["http://testserver" + reverse("bridge_table", args=[c.code]) for c in session.table_codes.all()]
    assert len(urls) == 3
    assert_each_card_encodes_its_address(text, urls)


def test_the_phone_page_leads_to_both_pairs_convention_cards(clients, codes, event, make_user):
    """VSz 15: at the table the players open the card of the pair they meet (the card page's own permission:
    the event's players and its director read it; an anonymous phone is asked to log in)."""
    now = table_entry.current_round(codes[2])
    text = phone(clients["anonymous"], codes[2]).content.decode()
    for seat in (now.ns, now.ew):
        url = reverse("bridge_pair_card", args=[seat.pair_id])
        assert f'data-card-link="{seat.pair_id}" href="{url}"' in text
    url = reverse("bridge_pair_card", args=[now.ew.pair_id])
    assert clients["director"].get(url).status_code == 200
    response = clients["anonymous"].get(url)
    assert response.status_code == 302 and "login" in response["Location"]
    # A player of the event (N-S at this table) reads the E-W pair's card.
    player = now.ns.pair.player1
    player.user = make_user("ns-jatekos@example.hu")
    player.save()
    clients["anonymous"].force_login(player.user)
    assert clients["anonymous"].get(url).status_code == 200


def test_the_start_page_leads_to_the_table_and_names_an_unknown_code(codes):
    code = codes[1]
    response = Client().get(
        reverse("bridge_table_start"), {"code": f" {code.code[:3].lower()}-{code.code[3:]} "}
    )
    assert response.status_code == 302 and response["Location"] == reverse("bridge_table", args=[code.code])
    unknown = Client().get(reverse("bridge_table_start"), {"code": "XXXXXX"}, HTTP_ACCEPT_LANGUAGE="hu")
    assert unknown.status_code == 404 and "Ilyen kódú asztal nincs." in unknown.content.decode()
