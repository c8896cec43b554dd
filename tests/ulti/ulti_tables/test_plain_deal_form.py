"""The ulti deal picker without JavaScript (issue #18): the phone page's plain form. Step one (declarer, bid,
one outcome for the whole bid) saves the common deal at once; step two asks, for that bid and declarer,
each part's outcome (with the "impossible part doubled" box under them where a part can be impossible),
the kontras (one per part in a suited game, one per defender in a no-trump game, I.3 (3)), the silent
games the bid leaves open and a revoke. The
deal it posts is the picker's deal: the same record and the same forints; a refusal writes nothing and
shows the engine's reason in Hungarian with the form as it was sent."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from ulti.models import TableEntry
from ulti.services import draw, table_entry

from .conftest import confirm_all, fill, key
from .plain_form import PlainForm

pytestmark = pytest.mark.django_db


def _url(code):
    return reverse("ulti_table", args=[code.code])


def _seats(code):
    return table_entry.seats_of(code.table)


def _step_two(phone, code, declarer, bid) -> PlainForm:
    """Step one's choice taken to step two, as a browser follows the redirect."""
    url = _url(code)
    form = PlainForm(phone.get(url).content.decode())
    form.choose("declarer", declarer)
    form.choose("bid" if bid in form.options("bid") else "bid_other", bid)
    response = phone.post(url, form.fields(button="plain-details"))
    assert response.status_code == 302 and response["Location"].startswith(url + "?"), response
    page = phone.get(response["Location"]).content.decode()
    assert 'data-step="details"' in page
    return PlainForm(page)


def test_step_one_saves_the_common_deal(codes):
    code = codes[1]
    phone = Client()
    url = _url(code)
    form = PlainForm(phone.get(url).content.decode())
    # Nothing chosen for the declarer and the bid; the whole bid made unless tapped.
    assert not [v for v, on in form.radios["declarer"] if on] and not [
        v for v, on in form.radios["bid"] if on
    ]
    assert form.fields()["outcome"] == "won"
    seats = _seats(code)
    data = (
        form.choose("declarer", seats[1].key).choose("bid", "40-100 ulti").choose("outcome", "lost").fields()
    )
    response = phone.post(url, data)
    assert response.status_code == 302 and response["Location"] == url
    entry = TableEntry.objects.get(kind="deal")
    assert entry.number == 1 and entry.record["declarer"] == seats[1].key
    assert entry.record["results"] == {"hundred": "lost", "ulti": "lost"} and entry.record["kontra"] == {}
    assert entry.forints[seats[1].key] < 0 and sum(entry.forints.values()) == 0
    # Sent twice (the back button, a double tap): the same key, one deal.
    assert phone.post(url, data).status_code == 302
    assert TableEntry.objects.filter(kind="deal").count() == 1
    # The next page's form builds on it: deal 2.
    following = PlainForm(phone.get(url).content.decode()).hidden
    assert following["number"] == "2" and following["based_on"] == str(entry.pk)


def test_step_two_asks_only_what_the_bid_and_the_declarer_leave_open(codes):
    code = codes[1]
    seats = _seats(code)
    declarer, defenders = seats[0], seats[1:]
    form = _step_two(Client(), code, declarer.key, "ulti")
    assert form.hidden["declarer"] == declarer.key and form.hidden["bid"] == "ulti"
    assert form.options("r_ulti") == ["won", "lost", "impossible"] and form.options("r_parti") == [
        "won",
        "lost",
    ]
    # A suited game: one kontra per part, whoever said it (it binds both defenders).
    kontras = sorted(name for name in form.radios if name.startswith("k_"))
    assert kontras == ["k_parti", "k_ulti"]
    said = ["0"] + [f"{d.key}:{level}" for d in defenders for level in (1, 2)]
    assert all(form.options(name) == said for name in kontras)
    # MAUSZ: silent 100 and four aces; not the ulti the bid already claims, no silent durchmars.
    assert sorted(n for n in form.selects if n.startswith("s_")) == ["s_100", "s_aces"]
    assert form.options("rv_player") == [""] + [s.key for s in seats]
    # The defaults are the common deal: made, no kontra, nothing silent, no revoke.
    sent = form.fields(button="plain-save")
    assert sent["r_ulti"] == sent["r_parti"] == "won"
    assert {sent[name] for name in kontras} == {"0"}
    assert sent["s_100"] == sent["s_aces"] == sent["rv_player"] == ""
    # A no-trump game has no silent achievements to ask about, no part that can be impossible, and a
    # kontra per defender (it binds only the doubler); each game's page says which rule it follows.
    page = Client().get(_url(code) + f"?declarer={declarer.key}&bid=betli").content.decode()
    betli = PlainForm(page)
    assert not [n for n in betli.selects if n.startswith("s_")] and "impdbl" not in betli.checkboxes
    assert sorted(n for n in betli.radios if n.startswith("k_")) == sorted(
        f"k_betli_{d.key}" for d in defenders
    )
    assert all(betli.options(f"k_betli_{d.key}") == ["0", "1", "2"] for d in defenders)
    assert "Színtelen játék: a kontra csak a kontrázóra érvényes" in page
    suited = Client().get(_url(code) + f"?declarer={declarer.key}&bid=ulti").content.decode()
    assert "Színes játék: egy védő kontrája mindkét védőre érvényes" in suited
    # The box of an impossible part sits under the parts' outcomes, before the kontras, and says when
    # it applies.
    results, box, kontra = (
        suited.index(s) for s in ('class="plain-results', 'id="plain-impdbl"', "plain-kontras")
    )
    assert results < box < kontra
    assert "Csak ha egy rész lehetetlennek van jelölve" in suited


# (declarer's seat, bid, outcomes, kontras {part: {defender's seat: level}}, silent, revoke (seat, when))
DEALS = [
    (0, "ulti", {"ulti": "won", "parti": "lost"}, {"ulti": {1: 1}, "parti": {2: 2}}, {}, None),
    (1, "40-100", {"hundred": "lost"}, {"hundred": {0: 2}}, {"aces": "defenders"}, None),
    (2, "passz", {"parti": "won"}, {"parti": {0: 1}}, {"100": "declarer"}, None),
    (0, "betli", {"betli": "lost"}, {"betli": {1: 1, 2: 2}}, {}, None),
    (1, "red ulti", {"ulti": "won", "parti": "won"}, {"ulti": {0: 1}}, {}, (2, "play")),
    (2, "ulti", {"ulti": "impossible", "parti": "won"}, {}, {"aces": "declarer"}, None),
    (0, "red 40-100", {"hundred": "won"}, {}, {"ulti": "declarer_failed"}, None),
    (1, "20-100 durchmars", {"hundred": "won", "durchmars": "lost"}, {"durchmars": {2: 1, 0: 2}}, {}, None),
]


def _picker_record(seats, deal) -> dict:
    """The record the script posts for the deal (table-entry.js submitDeal): every part's outcome, the
    kontras tapped (a defender tapped back to none stays as 0), the silent choices, the revoke."""
    declarer, bid, results, kontra, silent, revoke = deal
    return {
        "declarer": seats[declarer].key,
        "bid": bid,
        "results": results,
        "kontra": {
            slot: {seats[s].key: level for s, level in levels.items()} for slot, levels in kontra.items()
        },
        "silent": silent,
        "revoke": {"player": seats[revoke[0]].key, "phase": revoke[1], "offence": ""} if revoke else None,
    }


def _by_seat(record: dict, seats) -> str:
    """The record with the players' keys replaced by their seats: two tables' records compared."""
    text = json.dumps(record, sort_keys=True)
    for i, seat in enumerate(seats):
        text = re.sub(rf'"{seat.key}"', f'"seat{i}"', text)
    return text


def test_a_plain_deal_is_the_pickers_deal_record_and_forints(codes):
    """Table 1 enters the deals with the plain form, table 2 with the picker's JSON: the same records (seat
    by seat), the same forints deal by deal, the same sheet totals."""
    plain, picker = codes[1], codes[2]
    plain_seats, picker_seats = _seats(plain), _seats(picker)
    phone, script = Client(), Client()
    for number, deal in enumerate(DEALS, start=1):
        declarer, bid, results, kontra, silent, revoke = deal
        form = _step_two(phone, plain, plain_seats[declarer].key, bid)
        for slot, outcome in results.items():
            form.choose(f"r_{slot}", outcome)
        for slot, levels in kontra.items():
            if bid == "betli":  # no-trump: each defender's own
                for seat, level in levels.items():
                    form.choose(f"k_{slot}_{plain_seats[seat].key}", level)
                continue
            # Suited: the one that counts, the highest (the first in seat order of equal ones).
            seat = min(levels, key=lambda s: (-levels[s], s))
            form.choose(f"k_{slot}", f"{plain_seats[seat].key}:{levels[seat]}")
        for game, choice in silent.items():
            form.choose(f"s_{game}", choice)
        if revoke:
            form.choose("rv_player", plain_seats[revoke[0]].key).choose("rv_when", revoke[1])
        response = phone.post(_url(plain), form.fields(button="plain-save"))
        assert response.status_code == 302, response.content.decode()[-2000:]
        head = TableEntry.objects.filter(code=picker, kind="deal").order_by("pk").last()
        answer = script.post(
            _url(picker),
            {
                "kind": "deal",
                "number": number,
                "key": key(),
                "based_on": head.pk if head else "",
                "record": json.dumps(_picker_record(picker_seats, deal)),
            },
            HTTP_ACCEPT="application/json",
        )
        assert answer.status_code == 200, answer.json()
        mine = TableEntry.objects.get(code=plain, number=number)
        theirs = TableEntry.objects.get(code=picker, number=number)
        assert _by_seat(mine.record, plain_seats) == _by_seat(theirs.record, picker_seats)
        assert [mine.forints[s.key] for s in plain_seats] == [theirs.forints[s.key] for s in picker_seats]
        assert sum(mine.forints.values()) == 0
    assert TableEntry.objects.get(code=plain, number=1).record["kontra"] == {
        "ulti": {plain_seats[1].key: 1},
        "parti": {plain_seats[2].key: 2},
    }
    # The picker's kontra and rekontra on the durchmars come down to the rekontra, which binds both.
    assert TableEntry.objects.get(code=picker, number=8).record["kontra"] == {
        "durchmars": {picker_seats[0].key: 2}
    }
    totals = table_entry.state_of(plain).totals
    assert [totals[s.key] for s in plain_seats] == [
        table_entry.state_of(picker).totals[s.key] for s in picker_seats
    ]
    # The sheet shows the kontras and the totals.
    page = phone.get(_url(plain)).content.decode()
    assert "kontra (2)" in page and "rekontra (3)" in page
    footer = page[page.index("<tfoot>") : page.index("</tfoot>")]
    assert re.findall(r"[+-]\d+", footer) == [f"{totals[s.key]:+d}" for s in plain_seats]


@pytest.mark.parametrize(
    "bid, choices, hungarian",
    [
        (
            "ulti durchmars",
            {"r_durchmars": "won", "r_ulti": "lost"},
            "1. leosztás: a felvevő megcsinálta a durchmarsot, tehát minden ütést elvitt",
        ),
        (
            "ulti",
            {"r_ulti": "impossible", "impdbl": "1"},
            "1. leosztás: a lehetetlen ulti az első körben megkontrázva, de nincs hozzá kontra beírva",
        ),
        (
            "passz",
            {"r_parti": "lost", "s_100": "declarer"},
            "1. leosztás: az ütéssel teljesített csendes 100 ugyanannak a félnek nyeri a partit",
        ),
        (
            "40-100 ulti",
            {"r_ulti": "lost", "impdbl": "1"},
            "„az első kontrakörben megkontrázva” csak lehetetlennek jelölt részhez tartozik",
        ),
    ],
)
def test_an_impossible_deal_is_refused_in_hungarian_nothing_written_the_form_kept(
    codes, bid, choices, hungarian
):
    code = codes[1]
    phone = Client()
    form = _step_two(phone, code, _seats(code)[0].key, bid)
    for name, value in choices.items():
        form.choose(name, value)
    response = phone.post(_url(code), form.fields(button="plain-save"))
    assert response.status_code == 400
    page = response.content.decode()
    assert hungarian in page and "alert-danger" in page
    assert not TableEntry.objects.exists()
    # The form comes back as it was sent, to be put right.
    again = PlainForm(page)
    for name, value in choices.items():
        assert again.fields()[name] == value


def test_step_one_refuses_a_missing_declarer_and_two_bids(codes):
    code = codes[1]
    phone = Client()
    url = _url(code)
    form = PlainForm(phone.get(url).content.decode()).choose("bid", "passz")
    response = phone.post(url, form.fields(button="plain-details"))
    assert response.status_code == 400 and "válassza ki a felvevőt" in response.content.decode()
    form.choose("declarer", _seats(code)[0].key).choose("bid_other", "red 20-100")
    response = phone.post(url, form.fields(button="plain-save"))
    assert response.status_code == 400 and "egyetlen bemondást" in response.content.decode()
    assert 'data-step="pick"' in response.content.decode()
    assert not TableEntry.objects.exists()


def test_a_deal_is_corrected_without_javascript(codes):
    code = codes[1]
    phone = Client()
    seats = _seats(code)
    fill(code, deals=2)
    page = phone.get(_url(code)).content.decode()
    assert 'href="?deal=1#deal-picker"' in page
    # The stored deal opens in step two, as entered; a kontra added, saved as a correction of deal 1.
    form = PlainForm(phone.get(_url(code) + "?deal=1").content.decode())
    stored = TableEntry.objects.get(code=code, number=1).record
    assert form.hidden["number"] == "1" and form.hidden["bid"] == stored["bid"]
    assert form.fields()["r_parti"] == stored["results"]["parti"]
    defender = next(s for s in seats if s.key != stored["declarer"])
    form.choose("k_parti", f"{defender.key}:1")  # a passz: suited, one kontra for the part
    assert phone.post(_url(code), form.fields(button="plain-save")).status_code == 302
    latest = TableEntry.objects.filter(code=code, number=1).order_by("pk").last()
    assert latest.record["kontra"] == {"parti": {defender.key: 1}}
    assert table_entry.state_of(code).deals[1].pk == latest.pk and len(table_entry.state_of(code).deals) == 2
    # Another bid for deal 2: step one, with the stored declarer and bid chosen; a number beyond the
    # sheet's next deal is not a deal to correct.
    stored = TableEntry.objects.get(code=code, number=2).record
    page = phone.get(_url(code) + "?deal=2&pick=1").content.decode()
    pick = PlainForm(page)
    assert 'data-step="pick"' in page and pick.hidden["number"] == "2"
    assert pick.fields()["declarer"] == stored["declarer"] and pick.fields()["bid"] == stored["bid"]
    assert PlainForm(phone.get(_url(code) + "?deal=9").content.decode()).hidden["number"] == "3"


def test_a_complete_sheet_hides_the_form_until_a_deal_is_asked_for(codes):
    fill(codes[1])
    url = _url(codes[1])
    assert 'id="deal-picker" hidden' in Client().get(url).content.decode()
    page = Client().get(url + "?deal=12").content.decode()
    assert 'id="deal-picker" hidden' not in page and PlainForm(page).hidden["number"] == "12"


def test_a_wrong_code_or_another_tables_entry_is_refused(codes):
    code, other = codes[1], codes[2]
    foreign = fill(other, deals=1)
    phone = Client()
    form = PlainForm(phone.get(_url(code)).content.decode())
    data = form.choose("declarer", _seats(code)[0].key).choose("bid", "passz").fields()
    assert phone.post(reverse("ulti_table", args=["QQQQQQ"]), data).status_code == 404
    # Built on another table's deal: refused, nothing written.
    response = phone.post(_url(code), data | {"based_on": str(foreign.pk)})
    assert response.status_code == 400 and "nem ennek az asztalnak" in response.content.decode()
    # Another table's player as the declarer: refused.
    response = phone.post(_url(code), data | {"declarer": _seats(other)[0].key})
    assert response.status_code == 400
    assert not TableEntry.objects.filter(code=code).exists()


def test_an_earlier_rounds_code_writes_nothing(codes, rnd, director, django_capture_on_commit_callbacks):
    code = codes[1]
    phone = Client()
    data = PlainForm(phone.get(_url(code)).content.decode())
    with django_capture_on_commit_callbacks(execute=True):
        for c in codes.values():
            fill(c)
            confirm_all(c)
    draw.publish_round(draw.generate_round(rnd.group, director), director)
    before = TableEntry.objects.count()
    sent = data.choose("declarer", _seats(code)[0].key).choose("bid", "passz").fields() | {"number": "12"}
    response = phone.post(_url(code), sent)
    assert response.status_code == 400 and "nem az aktuális forduló" in response.content.decode()
    assert TableEntry.objects.count() == before
