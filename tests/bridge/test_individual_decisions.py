"""Individual events' corrections, adjusted scores and appeal decisions (issue #20): versions with who, when
and why, layered like the pairs' (bridge.services.decisions): a re-upload never drops one silently, the
director keeps, re-confirms or sets it aside (with a reason); only the event's director may."""

import datetime
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone, translation

from bridge.engine.individual_movements import individual as individual_movement
from bridge.models import IndividualResult, IndividualStanding, IndividualVersion, IndividualVersionDecision
from bridge.services import decisions, individual, uploads
from demo import individual_sample as sample
from federation.models import Role
from tournaments.models import Event

START = timezone.make_aware(datetime.datetime(2026, 4, 11, 10, 0))


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_players(mbsz, players=8, title="Őszi egyéni", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def rows():
    return sample.play(individual_movement(2, boards_per_round=2), random.Random(11))


@pytest.fixture
def setup(event, director, rows):
    setup = individual.setup_for(event)
    uploads.submit(setup, "csv", user=director, text=sample.csv_text(rows), file_name="e.csv")
    individual.recompute_event(event.pk)
    return setup


def played(rows) -> dict:
    return next(r for r in rows if r["contract"] and r["tricks"] is not None and r["tricks"] < 13)


def counts():
    return (
        IndividualVersion.objects.count(),
        IndividualResult.objects.count(),
        IndividualVersionDecision.objects.count(),
    )


def standings(event):
    return list(
        IndividualStanding.objects.filter(event=event)
        .order_by("rank")
        .values_list("player__number", "place", "total", "percentage")
    )


def latest_row(event, board, table) -> dict:
    version = individual.latest_version(event)
    return next(r for r in decisions.rows_of(version) if r["board"] == board and r["table"] == table)


def correct(setup, director, row):
    """One more trick for the declarer, as a correction."""
    return individual.apply_decision(
        setup,
        row["board"],
        row["table"],
        source="correction",
        reason="rossz ütésszám a bridgemate-ben",
        user=director,
        contract=row["contract"],
        declarer=row["declarer"],
        result=str(row["tricks"] + 1),
    )


def text_of(rows, kind):
    return sample.csv_text(rows) if kind == "csv" else sample.pbn_text(rows)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["csv", "pbn"])
def test_a_reupload_does_not_drop_a_correction(event, setup, director, rows, kind):
    row = played(rows)
    correction = correct(setup, director, row)
    assert (correction.source, correction.uploaded_by, correction.base.number) == ("correction", director, 1)
    assert "rossz ütésszám" in correction.note
    individual.recompute_event(event.pk)
    corrected = standings(event)
    fixed = latest_row(event, row["board"], row["table"])
    assert fixed["tricks"] == row["tricks"] + 1 and fixed["score"] != row["score"]
    before = counts()

    with pytest.raises(decisions.DecisionsPending) as pending:
        uploads.submit(setup, kind, user=director, text=text_of(rows, kind))
    assert counts() == before  # nothing written
    [item] = decisions.describe(setup, pending.value.affected)
    assert item["id"] == correction.pk and item["kind"] == "correction"
    [conflict] = item["conflicts"]
    assert conflict["board"] == row["board"]
    assert conflict["ns"]["number"] == f"{row['north']}–{row['south']}"
    assert conflict["ew"]["number"] == f"{row['east']}–{row['west']}"
    assert (conflict["upload"]["tricks"], conflict["decision"]["tricks"]) == (
        row["tricks"],
        row["tricks"] + 1,
    )

    version = uploads.submit(
        setup, kind, user=director, text=text_of(rows, kind), resolutions={correction.pk: "keep"}
    )
    individual.recompute_event(event.pk)
    assert latest_row(event, row["board"], row["table"])["tricks"] == row["tricks"] + 1
    assert standings(event) == corrected
    assert [(r.decision_id, r.action) for r in version.decisions.all()] == [(correction.pk, "kept")]
    assert [d["decision"] for d in decisions.summary(version)] == [correction]
    # the next upload still sees it in force, through the version that kept it
    with pytest.raises(decisions.DecisionsPending):
        uploads.submit(setup, kind, user=director, text=text_of(rows, kind))


@pytest.mark.django_db
def test_a_file_that_says_what_the_decision_said_carries_it(event, setup, director, rows):
    row = played(rows)
    correction = correct(setup, director, row)
    fixed = latest_row(event, row["board"], row["table"])
    agreeing = [{**r, "tricks": fixed["tricks"], "score": fixed["score"]} if r is row else r for r in rows]
    version = uploads.submit(setup, "csv", user=director, text=sample.csv_text(agreeing))
    assert [(r.decision_id, r.action) for r in version.decisions.all()] == [(correction.pk, "carried")]
    assert decisions.in_force(version) == [correction]


@pytest.mark.django_db
def test_setting_aside_needs_a_reason_and_records_it(event, setup, director, rows):
    original = standings(event)
    row = played(rows)
    correction = correct(setup, director, row)
    text = sample.csv_text(rows)
    before = counts()
    with pytest.raises(uploads.UploadError, match="give the reason"):
        uploads.submit(setup, "csv", user=director, text=text, resolutions={correction.pk: "set_aside"})
    with pytest.raises(uploads.UploadError, match="not one this upload affects"):
        uploads.submit(setup, "csv", user=director, text=text, resolutions={"999999": "keep"})
    assert counts() == before
    version = uploads.submit(
        setup,
        "csv",
        user=director,
        text=text,
        resolutions={correction.pk: "set_aside"},
        reasons={correction.pk: "a fájl a helyes"},
    )
    individual.recompute_event(event.pk)
    assert latest_row(event, row["board"], row["table"])["tricks"] == row["tricks"]
    assert standings(event) == original
    record = version.decisions.get()
    assert (record.decision_id, record.action, record.reason) == (
        correction.pk,
        "set_aside",
        "a fájl a helyes",
    )
    assert decisions.in_force(version) == []
    uploads.submit(setup, "csv", user=director, text=text)  # set aside: the same file asks nothing


@pytest.mark.django_db
def test_an_artificial_score_and_an_appeal_each_a_version(event, setup, director, rows):
    row = played(rows)
    adjusted = individual.apply_decision(
        setup, row["board"], row["table"], source="adjustment", reason="VSz 29", user=director, score="A+/A-"
    )
    individual.recompute_event(event.pk)
    stored = latest_row(event, row["board"], row["table"])
    assert (stored["artificial"], stored["score"], stored["contract"]) == ("A+/A-", None, "")
    other = next(r for r in rows if r["board"] != row["board"] and r["contract"])
    appeal = individual.apply_decision(
        setup, other["board"], other["table"], source="appeal", reason="FB-2", user=director, score="A"
    )
    assert decisions.in_force(appeal) == [adjusted, appeal]
    assert [d["kind"] for d in decisions.summary(appeal)] == ["artificial_score", "appeal"]
    assert IndividualStanding.objects.filter(event=event).count() == 8


@pytest.mark.django_db
def test_a_wrong_decision_is_refused_and_writes_nothing(event, setup, director, rows):
    row = played(rows)
    before = counts()

    def refused(match, **kwargs):
        args = {"source": "adjustment", "reason": "ok", "user": director, **kwargs}
        board, table = args.pop("board", row["board"]), args.pop("table", row["table"])
        with pytest.raises(individual.DecisionError, match=match):
            individual.apply_decision(setup, board, table, **args)

    refused("give the reason", reason=" ", score="A")
    refused("table 99 has no result", table=99, score="A")
    refused("no contract scores 10", score="10")
    refused("director's to give", source="correction", score="A+")
    refused("already recorded", source="correction", contract=row["contract"], declarer=row["declarer"],
            result=str(row["tricks"]))  # fmt: skip
    refused("correction, adjustment or appeal", source="csv", score="A")
    assert counts() == before


def post_file(client, event, text):
    return client.post(
        reverse("bridge_individual_upload", args=[event.pk]),
        {"format": "csv", "file": SimpleUploadedFile("e.csv", text.encode()), "note": ""},
    )


@pytest.mark.django_db
def test_the_director_decides_and_confirms_on_the_pages(client, event, setup, director, rows):
    row = played(rows)
    client.force_login(director)
    url = reverse("bridge_individual_decide", args=[event.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "kind": "adjustment",
            "board": row["board"],
            "table": row["table"],
            "score": "A+/A-",
            "reason": "VSz 29",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    ruling = individual.latest_version(event)
    assert ruling.source == "adjustment" and ruling.uploaded_by == director
    html = client.get(url).content.decode()
    assert "VSz 29" in html and 'id="individual-in-force"' in html
    bad = client.post(
        url, {"kind": "adjustment", "board": row["board"], "table": 99, "score": "A", "reason": "x"}
    )
    assert bad.status_code == 400 and 'id="decision-errors"' in bad.content.decode()

    before = counts()
    response = post_file(client, event, sample.csv_text(rows))
    confirm = reverse("bridge_individual_upload_confirm", args=[event.pk])
    assert response.status_code == 302 and response.url == confirm
    assert counts() == before
    page = client.get(confirm)
    assert page.status_code == 200
    html = page.content.decode()
    assert "A+/A-" in html and f'name="decision-{ruling.pk}"' in html and 'value="keep" checked' in html
    done = client.post(confirm, {"base": ruling.pk, f"decision-{ruling.pk}": "reconfirm"})
    assert done.status_code == 302 and done.url == reverse("bridge_individual", args=[event.pk])
    latest = individual.latest_version(event)
    assert latest.source == "csv" and latest.decisions.get().action == "reconfirmed"
    assert latest_row(event, row["board"], row["table"])["artificial"] == "A+/A-"
    assert client.get(confirm).status_code == 302  # the kept upload is gone
    upload_page = client.get(reverse("bridge_individual_upload", args=[event.pk])).content.decode()
    records = upload_page.split('class="list-unstyled mb-0 mt-1 version-records"')[1].split("</ul>")[0]
    with translation.override("hu"):
        assert str(IndividualVersionDecision.Action.RECONFIRMED.label) in records

    # abandoning stores nothing
    post_file(client, event, sample.csv_text(rows))
    before = counts()
    gone = client.post(confirm, {"abandon": "1"})
    assert gone.status_code == 302 and counts() == before


@pytest.mark.django_db
def test_only_the_events_director_may_decide(client, event, setup, director, rows, make_user, mbsz):
    row = played(rows)
    other_event = Event.objects.create(
        federation=mbsz, title="Másik", format="pairs", start_date=START.date()
    )
    other = make_user("td2@example.hu", kind=Role.DIRECTOR, event=other_event)
    player = make_user("player@example.hu")
    person = event.entries.first().members.first().person
    person.user = player
    person.save(update_fields=["user"])
    individual.publish(setup, director)  # public results: still not the public's to change
    url = reverse("bridge_individual_decide", args=[event.pk])
    confirm = reverse("bridge_individual_upload_confirm", args=[event.pk])
    post = {"kind": "adjustment", "board": row["board"], "table": row["table"], "score": "A", "reason": "x"}
    before = counts()
    for user in (None, other, player):
        client.logout()
        if user:
            client.force_login(user)
        for response in (client.get(url), client.post(url, post), client.get(confirm)):
            assert response.status_code in (302, 403)
            if user:
                assert response.status_code == 403
    assert counts() == before
    client.force_login(director)
    assert client.post(url, post).status_code == 302
    assert counts() != before


# --- VSz 25: substitutes under a player's number ------------------------------------------------------


@pytest.fixture
def substitute(mbsz):
    from federation.models import Membership, Person

    person = Person.objects.create(
        first_name="Béla", last_name="Helyettes", birth_date=datetime.date(1970, 5, 5), gender=Person.MALE
    )
    Membership.objects.create(person=person, federation=mbsz, member_number="H-777")
    return person


def boards_of(rows, number):
    return sorted({r["board"] for r in rows if number in (r["north"], r["south"], r["east"], r["west"])})


@pytest.mark.django_db
def test_the_one_who_played_more_boards_keeps_the_rights(event, setup, director, rows, substitute):
    from bridge.services.individual_source import individual_result

    played = boards_of(rows, 1)
    assert len(played) == 14
    individual.record_substitution(setup, 1, substitute, played[:8], director, "betegség")
    individual.publish(setup, director)
    placings = individual_result(event).placings
    placing = next(p for p in placings if any(s.person_id == substitute.pk for s in p.players))
    original = event.bridge_individual_players.get(number=1).person_id
    shares = {s.person_id: s for s in placing.players}
    assert shares[substitute.pk].has_rights and shares[substitute.pk].substitute_for == original
    assert not shares[original].has_rights
    assert (shares[substitute.pk].boards_played_fraction, shares[original].boards_played_fraction) == (
        pytest.approx(8 / 14),
        pytest.approx(6 / 14),
    )


@pytest.mark.django_db
def test_equal_boards_leave_the_rights_with_the_player(event, setup, director, rows, substitute):
    from bridge.services.individual_source import individual_result

    played = boards_of(rows, 2)
    individual.record_substitution(setup, 2, substitute, played[:7], director)
    individual.publish(setup, director)
    original = event.bridge_individual_players.get(number=2).person_id
    placing = next(
        p for p in individual_result(event).placings if any(s.person_id == original for s in p.players)
    )
    shares = {s.person_id: s for s in placing.players}
    assert shares[original].has_rights and not shares[substitute.pk].has_rights


@pytest.mark.django_db
def test_a_wrong_substitute_is_refused(event, setup, director, rows, substitute):
    from bridge.models import IndividualSubstitution

    played = boards_of(rows, 1)
    player_two = event.bridge_individual_players.get(number=2).person
    unplayed = next(b for b in range(1, 30) if b not in played)
    for number, person, boards, match in (
        (99, substitute, played[:2], "player 99 has nobody"),
        (1, player_two, played[:2], "plays in this event"),
        (1, substitute, [unplayed], f"no result on boards {unplayed}"),
    ):
        with pytest.raises(ValueError, match=match):
            individual.record_substitution(setup, number, person, boards, director)
    individual.record_substitution(setup, 1, substitute, played[:2], director)
    with pytest.raises(ValueError, match="already substituted for another player"):
        individual.record_substitution(setup, 3, substitute, boards_of(rows, 3)[:2], director)
    assert IndividualSubstitution.objects.count() == 1


@pytest.mark.django_db
def test_the_director_records_a_substitute_on_the_page(
    client, event, setup, director, rows, substitute, make_user, mbsz
):
    from bridge.models import IndividualSubstitution

    url = reverse("bridge_individual_decide", args=[event.pk])
    post = {"substitution": "1", "sub-number": 4, "sub-substitute": "H-777", "sub-boards": "", "sub-note": ""}
    post["sub-boards"] = ", ".join(map(str, boards_of(rows, 4)[:3]))
    other_event = Event.objects.create(
        federation=mbsz, title="Másik", format="pairs", start_date=START.date()
    )
    client.force_login(make_user("td2@example.hu", kind=Role.DIRECTOR, event=other_event))
    assert client.post(url, post).status_code == 403
    client.force_login(director)
    bad = client.post(url, {**post, "sub-substitute": "nincs"})
    assert bad.status_code == 400 and not IndividualSubstitution.objects.exists()
    assert client.post(url, post).status_code == 302
    sub = IndividualSubstitution.objects.get()
    assert (sub.player.number, sub.substitute, sub.boards, sub.recorded_by) == (
        4, substitute, boards_of(rows, 4)[:3], director
    )  # fmt: skip
    assert "Helyettes" in client.get(url).content.decode()
