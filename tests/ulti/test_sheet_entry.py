"""Score sheets: the deals of a table settle (on the server, by ulti.engine.scoring.settle) to the totals that
become the table's round result; a wrong number of deals or an invalid deal is refused with the deal's
number and writes nothing; the form, the preview endpoint and the printable sheets work."""

import datetime

import pytest
from django.utils import translation

from federation.models import Role
from tournaments.models import Entry, EntryMember, Event
from ulti.engine import sheet as sheet_engine
from ulti.engine.scoring import MAUSZ, Component, Deal, Silent, SilentGame, settle
from ulti.engine.scoring.deal import Side
from ulti.engine.sheet import BIDS
from ulti.models import RoundUpload, ScoreSheet, Standing
from ulti.services import UltiError, draw, setup, sheets, uploads

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Services speak the active language; these tests read their English wording."""
    with translation.override("en"):
        yield


@pytest.fixture
def played(mausz, ulti_club, make_person, make_user, django_capture_on_commit_callbacks):
    """A published round 1 of six players (two tables), 20 Ft a unit, table 2 already has a result."""
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Pontozólap kupa",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 5, 2),
        status="approved",
        rule_set="mausz",
    )
    for _ in range(6):
        entry = Entry.objects.create(event=event)
        EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
    user = make_user("vezeto@example.hu", kind=Role.DIRECTOR, event=event)
    setup.ensure_settings(event, unit_forints=20)
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    table = rnd.tables.get(number=1)
    other = rnd.tables.get(number=2)
    keys = [str(s.participant_id) for s in table.seats.order_by("position")]
    return event, user, rnd, table, other, keys


def records(keys, count=12):
    """Varied deals: plain passz, 40-100 with kontra, failed ulti, betli, silent 100 and four aces, revoke."""
    a, b, c = keys
    base = [
        (a, "passz", {"parti": "won"}, {}, {}, None),
        (b, "40-100", {"hundred": "won"}, {"hundred": {c: 1}}, {}, None),
        (c, "ulti", {"ulti": "lost", "parti": "won"}, {"ulti": {a: 2}}, {}, None),
        (a, "betli", {"betli": "lost"}, {"betli": {b: 1}}, {}, None),
        (b, "red passz", {"parti": "lost"}, {}, {"100": "defenders"}, None),
        (c, "durchmars", {"durchmars": "won"}, {}, {}, None),
        (a, "40-100 ulti", {"hundred": "won", "ulti": "won"}, {}, {}, None),
        (b, "passz", {"parti": "won"}, {}, {"aces": "declarer"}, None),
        (c, "red ulti", {"ulti": "won", "parti": "lost"}, {}, {}, None),
        (a, "rebetli", {"betli": "won"}, {}, {}, None),
        (b, "20-100", {"hundred": "lost"}, {}, {}, None),
        (c, "passz", {}, {"parti": {a: 1}}, {}, {"player": a, "phase": "play", "offence": ""}),
    ]
    out = []
    for n in range(1, count + 1):
        declarer, bid, results, kontra, silent, revoke = base[(n - 1) % len(base)]
        out.append(
            (
                n,
                {
                    "dealer": keys[(n - 1) % 3],
                    "declarer": declarer,
                    "bid": bid,
                    "results": results,
                    "kontra": kontra,
                    "silent": silent,
                    "impossible_doubled": False,
                    "revoke": revoke,
                },
            )
        )
    return out


def engine_total(keys, unit=20):
    """The same twelve deals built directly with the engine: the sheet must agree with this."""
    a, b, c = keys
    P, H, U, BE, D = (
        Component.PARTI,
        Component.FORTY_HUNDRED,
        Component.ULTI,
        Component.BETLI,
        Component.DURCHMARS,
    )
    from ulti.engine.scoring import Revoke

    deals = [
        Deal((a, b, c), a, BIDS["passz"], won={P: True}),
        Deal((a, b, c), b, BIDS["40-100"], won={H: True}, kontra={H: {c: 1}}),
        Deal((a, b, c), c, BIDS["ulti"], won={U: False, P: True}, kontra={U: {a: 2}}),
        Deal((a, b, c), a, BIDS["betli"], won={BE: False}, kontra={BE: {b: 1}}),
        Deal(
            (a, b, c),
            b,
            BIDS["red passz"],
            won={P: False},
            silent=(Silent(SilentGame.HUNDRED, Side.DEFENDERS),),
        ),
        Deal((a, b, c), c, BIDS["durchmars"], won={D: True}),
        Deal((a, b, c), a, BIDS["40-100 ulti"], won={H: True, U: True}),
        Deal(
            (a, b, c), b, BIDS["passz"], won={P: True}, silent=(Silent(SilentGame.FOUR_ACES, Side.DECLARER),)
        ),
        Deal((a, b, c), c, BIDS["red ulti"], won={U: True, P: False}),
        Deal((a, b, c), a, BIDS["rebetli"], won={Component.REBETLI: True}),
        Deal((a, b, c), b, BIDS["20-100"], won={Component.TWENTY_HUNDRED: False}),
        Deal((a, b, c), c, BIDS["passz"], kontra={P: {a: 1}}, revoke=Revoke(a)),
    ]
    totals = dict.fromkeys(keys, 0)
    for deal in deals:
        for k, v in settle(deal, MAUSZ).forints(unit).items():
            totals[k] += v
    return totals


def test_a_sheet_of_twelve_deals_becomes_the_tables_round_result(played, django_capture_on_commit_callbacks):
    event, user, rnd, table, other, keys = played
    other_seats = list(other.seats.order_by("position").values_list("participant_id", flat=True))
    uploads.upload_table(other, dict(zip(other_seats, (200, -100, -100), strict=True)), user=user)
    with django_capture_on_commit_callbacks(execute=True):
        sheet = sheets.save(table, records(keys), user=user)
    expected = engine_total(keys)
    assert sheet.totals == expected and sum(expected.values()) == 0 and any(expected.values())
    latest = RoundUpload.objects.filter(round=rnd).order_by("-number").first()
    assert latest == sheet.upload and latest.number == 2
    got = {str(line.participant_id): line.forint for line in latest.lines.filter(table=table)}
    assert got == expected
    kept = {line.participant_id: line.forint for line in latest.lines.filter(table=other)}
    assert kept == dict(zip(other_seats, (200, -100, -100), strict=True))
    best = max(expected, key=expected.get)
    row = Standing.objects.get(participant_id=int(best), after_round=1, group=None)
    assert row.forint == expected[best] and row.points in (3, 4)


def test_the_wrong_number_of_deals_is_refused(played):
    event, user, rnd, table, other, keys = played
    with pytest.raises(UltiError, match="11 deals.*12"):
        sheets.save(table, records(keys, 11), user=user)
    with pytest.raises(UltiError, match="13 deals"):
        sheets.save(table, records(keys, 13), user=user)
    assert not ScoreSheet.objects.exists() and not RoundUpload.objects.exists()


def test_a_kontra_by_the_declarer_is_refused_with_the_deal_number(played):
    event, user, rnd, table, other, keys = played
    rows = records(keys)
    rows[4][1]["kontra"] = {"parti": {rows[4][1]["declarer"]: 1}}  # deal 5: the declarer doubles himself
    with pytest.raises(UltiError) as refused:
        sheets.save(table, rows, user=user)
    message = refused.value.messages[0]
    assert message.startswith("Deal 5:") and "declarer" in message
    assert str(table.seats.get(participant_id=int(rows[4][1]["declarer"])).participant.person) in message
    assert not ScoreSheet.objects.exists() and not RoundUpload.objects.exists()


def test_a_missing_outcome_names_the_deal(played):
    event, user, rnd, table, other, keys = played
    rows = records(keys)
    rows[2][1]["results"] = {"parti": "won"}  # deal 3: the ulti's outcome is missing
    with pytest.raises(UltiError, match="Deal 3: no result for ulti"):
        sheets.save(table, rows, user=user)


def form_data(keys, rows):
    data = {}
    seat = {k: str(i) for i, k in enumerate(keys)}
    for n, r in rows:
        data[f"d{n}_dealer"] = seat[r["dealer"]]
        data[f"d{n}_declarer"] = seat[r["declarer"]]
        data[f"d{n}_bid"] = r["bid"]
        for slot, outcome in r["results"].items():
            data[f"d{n}_{slot}"] = outcome
        for slot, levels in r["kontra"].items():
            for k, level in levels.items():
                data[f"d{n}_{slot}_k{seat[k]}"] = str(level)
        for game, choice in r["silent"].items():
            data[f"d{n}_s_{game}"] = choice
        if r["revoke"]:
            data[f"d{n}_rv_player"] = seat[r["revoke"]["player"]]
            data[f"d{n}_rv_phase"] = r["revoke"]["phase"]
    return data


def test_the_form_previews_running_totals_and_saves(client, played, django_capture_on_commit_callbacks):
    event, user, rnd, table, other, keys = played
    client.force_login(user)
    page = client.get(f"/ulti/tables/{table.pk}/sheet/")
    assert page.status_code == 200 and "ulti/sheet.js" in page.content.decode()
    data = form_data(keys, records(keys))
    preview = client.post(f"/ulti/tables/{table.pk}/sheet/preview/", form_data(keys, records(keys, 3))).json()
    assert preview["count"] == 3 and not preview["complete"]
    first = settle(Deal(tuple(keys), keys[0], BIDS["passz"], won={Component.PARTI: True}), MAUSZ).forints(20)
    assert preview["deals"][0]["forints"] == first
    assert preview["deals"][2]["running"] == preview["totals"]
    assert client.post(f"/ulti/tables/{table.pk}/sheet/preview/", data).json()["complete"]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/ulti/tables/{table.pk}/sheet/", data)
    assert response.status_code == 302
    assert ScoreSheet.objects.get(table=table).totals == engine_total(keys)


def test_printable_sheets_render(client, played):
    event, user, rnd, table, other, keys = played
    client.force_login(user)
    empty = client.get(f"/ulti/tables/{table.pk}/sheet/print/?empty=1")
    assert empty.status_code == 200 and empty.content.decode().count('class="blank"') == 12
    sheets.save(table, records(keys), user=user)
    client.logout()
    filled = client.get(f"/ulti/tables/{table.pk}/sheet/print/").content.decode()
    totals = engine_total(keys)
    assert f"{totals[keys[0]]:+d}" in filled and "Durchmars" in filled or "durchmars" in filled
    assert client.get(f"/ulti/tables/{other.pk}/sheet/print/?empty=1").status_code in (302, 403)


# --- Records that contradict themselves (issue 22; MAUSZ I.1 (2), I.2 (4), I.6 (3)) ------------------------


def _deal(rows, number, bid, results, silent=None):
    record = rows[number - 1][1]
    record.update(bid=bid, results=results, kontra={}, silent=silent or {}, revoke=None)
    return record


def test_a_made_durchmars_with_a_lost_ulti_is_refused_with_the_deal_number(played):
    event, user, rnd, table, other, keys = played
    rows = records(keys)
    _deal(rows, 6, "ulti durchmars", {"ulti": "lost", "durchmars": "won"})
    with pytest.raises(UltiError) as refused:
        sheets.save(table, rows, user=user)
    message = refused.value.messages[0]
    assert message.startswith("Deal 6:") and "ulti cannot be lost (I.1 (2))" in message
    assert not ScoreSheet.objects.exists() and not RoundUpload.objects.exists()
    # Recorded as it can happen (the ulti made with the durchmars: 4 + 6 = 10 from each defender, 20 Ft a
    # unit), the same sheet is saved and deal 6 pays 400 Ft to its declarer.
    _deal(rows, 6, "ulti durchmars", {"ulti": "won", "durchmars": "won"})
    sheets.save(table, rows, user=user)
    sheet = ScoreSheet.objects.get(table=table)
    declarer = rows[5][1]["declarer"]
    line = sheet_engine.settle_sheet([rows[5]], keys, MAUSZ, 20).lines[0]
    assert line.forints[declarer] == 400
    assert sheet.totals == sheet_engine.settle_sheet(rows, keys, MAUSZ, 20).totals


def test_a_silent_100_in_a_durchmars_game_is_refused_as_a_revoke(played):
    event, user, rnd, table, other, keys = played
    rows = records(keys)
    _deal(rows, 6, "durchmars", {"durchmars": "lost"}, {"100": "defenders"})
    with pytest.raises(UltiError, match=r"Deal 6: .*revoke \(I\.6 \(3\)\)"):
        sheets.save(table, rows, user=user)
    assert not ScoreSheet.objects.exists()


def test_the_trickless_silent_100_is_entered_and_enforced(played):
    event, user, rnd, table, other, keys = played
    rows = records(keys)
    # Deal 1, passz: the defenders' melds make 100 but they took no trick (I.2 (4)), so the declarer took
    # every card point: the parti is his (1 unit = 20 Ft from each defender), the 100 does not count.
    _deal(rows, 1, "passz", {"parti": "lost"}, {"100": "defenders_notrick"})
    with pytest.raises(UltiError, match=r"Deal 1: .*took no trick.*\(I\.2 \(4\)\)"):
        sheets.save(table, rows, user=user)
    _deal(rows, 1, "passz", {"parti": "won"}, {"100": "defenders_notrick"})
    sheets.save(table, rows, user=user)
    declarer = rows[0][1]["declarer"]
    line = sheet_engine.settle_sheet([rows[0]], keys, MAUSZ, 20).lines[0]
    assert line.forints[declarer] == 40 and sorted(line.forints.values()) == [-20, -20, 40]


def test_the_sheet_page_words_the_contradiction_in_hungarian(client, played):
    event, user, rnd, table, other, keys = played
    client.force_login(user)
    rows = records(keys, 6)
    _deal(rows, 6, "durchmars", {"durchmars": "won"}, {"100": "defenders"})
    with translation.override("hu"):
        preview = client.post(
            f"/ulti/tables/{table.pk}/sheet/preview/", form_data(keys, rows), HTTP_ACCEPT_LANGUAGE="hu"
        ).json()
    error = preview["deals"][5]["error"]
    assert "renonsz" in error and "I.6 (3)" in error and "revoke" not in error
