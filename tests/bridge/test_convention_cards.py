"""Convention cards (VSz 15, VSz 32 g): a pair uploads or fills in its card of the class the event's class asks
for; the event's players and the director see it, nobody else; the director's session page flags missing and
incomplete cards with the VSz 32 g penalty range; hostile uploads are refused with nothing stored."""

import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import ConventionCard, Pair
from bridge.services import cards, setup
from demo import bridge_sample as sample
from federation.models import Role
from tournaments.models import Event

START = timezone.now() - datetime.timedelta(hours=3)
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
FULL = {"system": "Standard", "notrump_range": "15-17", "openings": "1M 5+", "carding": "UDCA", "leads": "4."}


@pytest.fixture(autouse=True)
def english(settings, tmp_path, client):
    settings.MEDIA_ROOT = str(tmp_path)
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=8, title="Kártyák", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event):
    return setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )


def _player_of(make_user, pair, email):
    user = make_user(email)
    pair.player1.user = user
    pair.player1.save()
    user.refresh_from_db()
    return user


@pytest.fixture
def pairs(session):
    return list(Pair.objects.filter(seats__section__session=session).order_by("pk"))


def test_card_class_follows_the_event_class():
    club = Event(event_class=Event.EventClass.CLUB)
    low = Event(event_class=Event.EventClass.ANNOUNCED, masterpoint_multiplier=Decimal("3.00"))
    high = Event(event_class=Event.EventClass.ANNOUNCED, masterpoint_multiplier=Decimal("4.00"))
    national = Event(event_class=Event.EventClass.NATIONAL)
    assert cards.card_class(club) == cards.card_class(low) == ConventionCard.CardClass.SIMPLIFIED
    assert cards.card_class(high) == cards.card_class(national) == ConventionCard.CardClass.DETAILED


@pytest.mark.django_db
def test_a_pair_fills_in_and_uploads_its_card_earlier_ones_kept(event, session, pairs, make_user, client):
    pair = pairs[0]
    client.force_login(_player_of(make_user, pair, "p1@example.hu"))
    url = reverse("bridge_pair_card", args=[pair.pk])
    assert client.post(url, FULL).status_code == 302
    first = cards.current(pair)
    assert first.system == "Standard" and first.card_class == ConventionCard.CardClass.DETAILED
    response = client.post(url, {"file": SimpleUploadedFile("kartya.pdf", PDF, "application/pdf")})
    assert response.status_code == 302
    second = cards.current(pair)
    assert second.pk != first.pk and second.content_type == "application/pdf" and second.size == len(PDF)
    assert ConventionCard.objects.filter(pair=pair).count() == 2
    page = client.get(url)
    assert page.status_code == 200 and "kartya.pdf" in page.content.decode()
    download = client.get(reverse("bridge_card_file", args=[second.pk]))
    assert download.status_code == 200 and b"".join(download.streaming_content) == PDF
    assert download["Content-Type"] == "application/pdf"
    assert "attachment" in download["Content-Disposition"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name,data,message",
    [
        ("card.pdf", b"<html><script>alert(1)</script></html>", "PDF document or a PNG or JPEG photo only"),
        ("card.png", b"GIF89a" + b"\0" * 40, "PDF document or a PNG or JPEG photo only"),
        ("card.pdf", b"%PDF-" + b"x" * (cards.MAX_BYTES + 10), "larger than"),
        ("card.pdf", b"", "empty"),
        ("card.html", PDF, "not .html"),
        ("card.svg", b"\x89PNG\r\n\x1a\n" + b"\0" * 40, "not .svg"),
    ],
)
def test_a_hostile_upload_is_refused_and_nothing_stored(
    event, session, pairs, make_user, client, tmp_path, name, data, message
):
    pair = pairs[0]
    client.force_login(_player_of(make_user, pair, "p1@example.hu"))
    response = client.post(
        reverse("bridge_pair_card", args=[pair.pk]),
        {"file": SimpleUploadedFile(name, data, "application/pdf")},
    )
    if data:
        assert response.status_code == 400
        assert message in response.content.decode()
    else:  # an empty file is no file: the form is empty and refused the same way
        assert response.status_code == 400
    assert not ConventionCard.objects.exists()
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


@pytest.mark.django_db
def test_a_bad_form_names_the_field_and_stores_nothing(event, session, pairs, make_user, client):
    pair = pairs[0]
    client.force_login(_player_of(make_user, pair, "p1@example.hu"))
    url = reverse("bridge_pair_card", args=[pair.pk])
    response = client.post(url, {**FULL, "notrump_range": "1" * 41})
    assert response.status_code == 400
    assert "1NT opening range: Ensure this value has at most 40 characters" in response.content.decode()
    assert client.post(url, {"system": "  "}).status_code == 400
    assert not ConventionCard.objects.exists()


@pytest.mark.django_db
def test_who_sees_and_who_submits_a_card(event, session, pairs, director, make_user, mbsz, client):
    pair, opponent_pair = pairs[0], pairs[1]
    cards.submit_form(pair, director, FULL)
    card = cards.current(pair)
    own = _player_of(make_user, pair, "p1@example.hu")
    opponent = _player_of(make_user, opponent_pair, "p2@example.hu")
    other_event = sample.event_with_pairs(mbsz, pairs=4, title="Másik", start=START)
    stranger_pair = Pair.objects.create(event=other_event, name="Idegen")
    stranger = make_user("idegen@example.hu")
    stranger_person = other_event.entries.first().members.first().person
    stranger_person.user = stranger
    stranger_person.save()
    Pair.objects.filter(pk=stranger_pair.pk).update(player1=stranger_person)
    other_director = make_user("masik@example.hu", kind=Role.DIRECTOR, event=other_event)
    page, file_url = reverse("bridge_pair_card", args=[pair.pk]), reverse("bridge_card_file", args=[card.pk])
    for user in (own, opponent, director):
        client.force_login(user)
        response = client.get(page)
        assert response.status_code == 200 and "15-17" in response.content.decode()
    client.logout()
    response = client.get(page)
    assert response.status_code == 302 and "login" in response.url
    for user in (stranger, other_director):
        client.force_login(user)
        assert client.get(page).status_code == 403
        assert client.get(file_url).status_code == 403
        assert client.post(page, FULL).status_code == 403
    # The opponent reads the card but may not replace it.
    client.force_login(opponent)
    assert client.post(page, {**FULL, "system": "Precision"}).status_code == 403
    assert cards.current(pair).system == "Standard"
    assert ConventionCard.objects.count() == 1


@pytest.mark.django_db
def test_the_director_sees_missing_and_incomplete_cards_with_the_penalty_range(
    event, session, pairs, director, make_user, client
):
    complete, incomplete = pairs[0], pairs[1]
    cards.submit_form(complete, director, FULL)
    cards.submit_form(incomplete, director, {"system": "Standard"})
    flags = {f["pair"].pk: f for f in cards.session_flags(session)}
    assert complete.pk not in flags
    assert flags[incomplete.pk]["code"] == "incomplete_convention_card"
    assert (flags[incomplete.pk]["low"], flags[incomplete.pk]["high"]) == (Decimal(0), Decimal(50))
    assert "1NT opening range" in flags[incomplete.pk]["missing"]
    missing = [p for p in pairs if p.pk not in (complete.pk, incomplete.pk)]
    assert all(flags[p.pk]["code"] == "missing_convention_card" for p in missing)
    assert (flags[missing[0].pk]["low"], flags[missing[0].pk]["high"]) == (Decimal(50), Decimal(100))
    client.force_login(director)
    html = client.get(reverse("bridge_session", args=[session.pk])).content.decode()
    assert 'id="card-flags"' in html and "VSz 32 g: 50% – 100%" in html and "VSz 32 g: warning – 50%" in html
    assert reverse("bridge_pair_card", args=[incomplete.pk]) in html
    # The event's players reach every pair's card from the event page (before any result is published),
    # never the director's flags; a visitor who plays in no pair of it gets no list.
    event_page = reverse("bridge_event", args=[event.pk])
    client.force_login(_player_of(make_user, complete, "p1@example.hu"))
    html = client.get(event_page).content.decode()
    assert 'id="card-list"' in html and 'id="card-flags"' not in html
    assert all(reverse("bridge_pair_card", args=[p.pk]) in html for p in pairs)
    client.force_login(make_user("nezo@example.hu"))
    response = client.get(event_page)
    assert response.status_code == 200 and 'id="card-list"' not in response.content.decode()
    # Once published, the session's pair list links each pair's card for the players.
    session.published_at = timezone.now()
    session.save()
    client.force_login(_player_of(make_user, incomplete, "p2@example.hu"))
    html = client.get(reverse("bridge_session", args=[session.pk])).content.decode()
    assert 'id="card-list"' in html and 'id="card-flags"' not in html
    # A simplified-card event does not ask for the openings.
    event.event_class = Event.EventClass.CLUB
    event.save()
    cards.submit_form(incomplete, director, {**FULL, "openings": ""})
    assert incomplete.pk not in {f["pair"].pk for f in cards.session_flags(session)}


@pytest.mark.django_db
def test_erasure_deletes_the_card_files_of_the_persons_pairs(
    session, pairs, make_user, django_capture_on_commit_callbacks
):
    from federation.services import erasure

    erased_pair, other_pair = pairs[0], pairs[1]
    user = _player_of(make_user, erased_pair, "p1@example.hu")
    person = erased_pair.player1
    upload = SimpleUploadedFile(f"{person.last_name}.pdf", PDF, "application/pdf")
    card = cards.submit_file(erased_pair, user, upload, notes=f"{person} kártyája")
    kept = cards.submit_file(other_pair, user, SimpleUploadedFile("k.pdf", PDF, "application/pdf"))
    stored = card.file.name
    assert card.file.storage.exists(stored)
    with django_capture_on_commit_callbacks(execute=True):
        req = erasure.carry_out(erasure.request_erasure(person, user), user)
    card = ConventionCard.objects.get(pk=card.pk)  # the row stays (append-only), its file is gone
    assert not card.file and card.original_name == "" and not card.file.storage.exists(stored)
    assert card.notes == f"Törölt #{person.pk} játékos kártyája" and card.sha256
    kept = ConventionCard.objects.get(pk=kept.pk)
    assert kept.file and kept.file.storage.exists(kept.file.name)
    assert "convention_card_files" in req.erased
