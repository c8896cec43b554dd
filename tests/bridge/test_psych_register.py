"""The psych register (VSz 17): the director records a psych with board and pair; a pair's repeated psychs are
shown to the director and the federation staff; nobody else reaches the register."""

import datetime
import random

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import PsychRecord, SessionPair
from bridge.services import psychs, setup, upload_readers, uploads
from demo import bridge_sample as sample
from federation.models import Club, Role
from results.models import VersionedUpload

START = timezone.now() - datetime.timedelta(hours=3)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=8, title="Blöff", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event, director):
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(4))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    return session


@pytest.mark.django_db
@pytest.mark.usefixtures("english_pages")
def test_repeated_psychs_of_a_pair_are_shown(event, session, director, client):
    seat, other = SessionPair.objects.filter(section__session=session).order_by("number")[:2]
    client.force_login(director)
    url = reverse("bridge_psychs", args=[session.pk])
    done = client.post(url, {"board": 3, "pair": seat.pk, "call": "1♥ szingli kőrrel", "note": "É"})
    assert done.status_code == 302
    psychs.record(session, 1, other, "2NT gyengével", user=director)
    assert psychs.repeated(event) == []  # one psych each: nothing to look at yet
    html = client.get(url).content.decode()
    assert "1♥ szingli kőrrel" in html and "Pairs with repeated psychs" not in html
    client.post(url, {"board": 5, "pair": seat.pk, "call": "1♠ blöff"})
    [item] = psychs.repeated(event)
    assert item["pair"] == seat.pair and item["count"] == 2
    assert [r.board for r in item["records"]] == [3, 5]
    html = client.get(url).content.decode()
    assert "Pairs with repeated psychs" in html and seat.pair.display_name in html
    event_page = client.get(reverse("bridge_event_psychs", args=[event.pk])).content.decode()
    assert "Pairs with repeated psychs" in event_page and "1♠ blöff" in event_page
    assert (
        reverse("bridge_event_psychs", args=[event.pk])
        in client.get(reverse("bridge_event", args=[event.pk])).content.decode()
    )


@pytest.mark.django_db
def test_a_board_not_played_or_a_pair_of_another_session_is_refused(event, session, director, client):
    seat = SessionPair.objects.filter(section__session=session).first()
    with pytest.raises(psychs.PsychError, match="board 99 was not played"):
        psychs.record(session, 99, seat, "1NT", user=director)
    client.force_login(director)
    refused = client.post(
        reverse("bridge_psychs", args=[session.pk]), {"board": 99, "pair": seat.pk, "call": "1NT"}
    )
    assert (
        refused.status_code == 400
        and "a(z) 99. leosztást nem játszották ebben a fordulóban"
        in refused.content.decode()  # the page is Hungarian
    )
    other_event = sample.event_with_pairs(event.federation, pairs=4, title="Más", start=START)
    other = setup.create_session(
        other_event, movement="mitchell", pairs=setup.pairs_from_entries(other_event),
        announced=other_event.sessions.first(),
    )  # fmt: skip
    stranger = SessionPair.objects.filter(section__session=other).first()
    # A seat id of another event is not in the form's choices: refused, nothing recorded.
    refused = client.post(
        reverse("bridge_psychs", args=[session.pk]), {"board": 1, "pair": stranger.pk, "call": "x"}
    )
    assert refused.status_code == 400
    with pytest.raises(psychs.PsychError):
        psychs.record(session, 1, stranger, "1NT", user=director)
    assert not PsychRecord.objects.exists()


@pytest.mark.django_db
def test_who_reaches_the_register(event, session, director, make_user, mbsz, client):
    club = Club.objects.create(federation=mbsz, name="Rendező klub", city="Szeged")
    event.club = club
    event.save()
    other_event = sample.event_with_pairs(mbsz, pairs=4, title="Másik", start=START)
    seat = SessionPair.objects.filter(section__session=session).first()
    player = make_user("jatekos@example.hu")
    player.person = seat.pair.player1
    seat.pair.player1.user = player
    seat.pair.player1.save()
    urls = [reverse("bridge_psychs", args=[session.pk]), reverse("bridge_event_psychs", args=[event.pk])]
    refused = {
        "anonymous": None,
        "other director": make_user("masik@example.hu", kind=Role.DIRECTOR, event=other_event),
        "club admin": make_user("klub@example.hu", kind=Role.CLUB_ADMIN, club=club),
        "player": player,
    }
    for who, user in refused.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        for url in urls:
            response = client.get(url)
            assert response.status_code in (302, 403), (who, url)
            if user is None:
                assert "login" in response.url
        post = client.post(urls[0], {"board": 1, "pair": seat.pk, "call": "1NT"})
        assert post.status_code in (302, 403), who
    assert not PsychRecord.objects.exists()
    staff = make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz)
    for user in (director, staff):
        client.force_login(user)
        assert all(client.get(url).status_code == 200 for url in urls)


@pytest.mark.django_db
def test_the_staff_sees_a_players_psychs_across_events(event, session, director, make_user, mbsz, client):
    seat = SessionPair.objects.filter(section__session=session).first()
    person = seat.pair.player1
    psychs.record(session, 1, seat, "1♣ blöff", user=director)
    assert psychs.repeated_players(mbsz) == []
    # The same player in another event of the federation, with another partner.
    other_event = sample.event_with_pairs(mbsz, pairs=4, title="Második", start=START)
    other = setup.create_session(
        other_event, movement="mitchell", pairs=setup.pairs_from_entries(other_event),
        announced=other_event.sessions.first(),
    )  # fmt: skip
    rows = sample.play(other, random.Random(1))
    other_director = make_user("td2@example.hu", kind=Role.DIRECTOR, event=other_event)
    uploads.upload(
        other, upload_readers.parse_csv(sample.csv_text(other, rows)), source=VersionedUpload.Source.CSV,
        user=other_director,
    )  # fmt: skip
    other_seat = SessionPair.objects.filter(section__session=other).first()
    PsychRecord.objects.create(
        session=other,
        board=2,
        pair=other_seat.pair,
        player=person,
        call="2♦ blöff",
        recorded_by=other_director,
    )
    [item] = psychs.repeated_players(mbsz)
    assert item["person"] == person and item["count"] == 2
    url = reverse("bridge_federation_psychs", args=[mbsz.pk])
    staff = make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz)
    client.force_login(staff)
    html = client.get(url).content.decode()
    assert "1♣ blöff" in html and "2♦ blöff" in html and str(person) in html
    assert url in client.get(reverse("bridge_event_psychs", args=[event.pk])).content.decode()
    for user in (director, other_director):  # each director sees his own event only
        client.force_login(user)
        assert client.get(url).status_code == 403
