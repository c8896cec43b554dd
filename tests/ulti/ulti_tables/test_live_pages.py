"""Live ulti pages (issue #18): while a round played with table codes waits for the director's publication,
the event's standings and the round's page are marked "live, provisional" and poll a fragment of themselves
that answers 304 to an unchanged ETag and the new standings once a table confirms, behind the page cache.
Publishing the results ends the mark; a round without table codes is never live, and a draft round stays
hidden."""

import pytest
from django.core.cache import cache
from django.urls import reverse
from freezegun import freeze_time

from ulti.models import Round
from ulti.services import draw, live

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def get(client, name, pk, query="", **headers):
    return client.get(reverse(name, args=[pk]) + query, headers=headers)


def test_the_standings_and_round_pages_are_live_while_the_tables_play(clients, rnd, codes):
    anonymous = clients["anonymous"]
    for name, pk, script in (
        ("ulti_standings", rnd.event.pk, "js/live.js"),
        ("ulti_round", rnd.pk, "js/live.js"),
    ):
        text = get(anonymous, name, pk).content.decode()
        assert "élő, nem végleges" in text and 'id="live-status"' in text, name
        assert script in text and 'data-live-etag="&quot;' in text, name
    assert live.is_live(rnd)


def test_without_table_codes_a_round_is_not_live(clients, rnd):
    text = get(clients["anonymous"], "ulti_standings", rnd.event.pk).content.decode()
    assert "élő, nem végleges" not in text and "js/live.js" not in text
    assert "élő, nem végleges" not in get(clients["anonymous"], "ulti_round", rnd.pk).content.decode()
    assert not live.is_live(rnd)


def test_the_standings_fragment_answers_304_until_a_table_confirms(clients, rnd, codes, play):
    anonymous = clients["anonymous"]
    first = get(anonymous, "ulti_live_standings", rnd.event.pk)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    text = first.content.decode()
    assert "<html" not in text and 'id="live-status"' in text
    assert "table-standings" not in text  # nothing confirmed yet
    tag = first["ETag"]
    again = get(anonymous, "ulti_live_standings", rnd.event.pk, if_none_match=tag)
    assert again.status_code == 304 and again["ETag"] == tag and again.content == b""
    play(codes[1])
    changed = get(anonymous, "ulti_live_standings", rnd.event.pk, if_none_match=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    text = changed.content.decode()
    assert "table-standings" in text and "élő, nem végleges" in text
    seat = codes[1].table.seats.select_related("participant__person").first()
    assert str(seat.participant.person) in text
    assert (
        get(anonymous, "ulti_live_standings", rnd.event.pk, if_none_match=changed["ETag"]).status_code == 304
    )


def test_the_round_fragment_shows_a_confirmed_tables_forints(clients, rnd, codes, play):
    anonymous = clients["anonymous"]
    tag = get(anonymous, "ulti_live_round", rnd.pk)["ETag"]
    assert get(anonymous, "ulti_live_round", rnd.pk, if_none_match=tag).status_code == 304
    play(codes[1])
    changed = get(anonymous, "ulti_live_round", rnd.pk, if_none_match=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    forints = rnd.tables.get(number=1).scores.values_list("forint", flat=True)
    text = changed.content.decode()
    assert all(f"{f:+d}" in text for f in forints) and "élő, nem végleges" in text


def test_the_fragment_is_shared_through_the_page_cache_and_its_304_costs_two_reads(
    clients, rnd, codes, django_assert_max_num_queries
):
    anonymous = clients["anonymous"]
    first = get(anonymous, "ulti_live_standings", rnd.event.pk, "?stage=1")
    with django_assert_max_num_queries(2):
        again = get(anonymous, "ulti_live_standings", rnd.event.pk, "?stage=1", if_none_match=first["ETag"])
        assert again.status_code == 304
    second = get(anonymous, "ulti_live_standings", rnd.event.pk, "?stage=1")
    assert second["X-Page-Cache"] == "hit" and second["ETag"] == first["ETag"]
    assert second.content == first.content
    # Another page's parameters: another copy (the tag is its content's: the same while the bytes are).
    other = get(anonymous, "ulti_live_standings", rnd.event.pk, "?stage=1&after=1")
    assert other["X-Page-Cache"] == "miss"
    assert (other["ETag"] == first["ETag"]) == (other.content == first.content)


def test_publishing_the_results_ends_the_live_mark(clients, rnd, codes, play, director):
    anonymous = clients["anonymous"]
    play(codes[1])
    tag = get(anonymous, "ulti_live_standings", rnd.event.pk)["ETag"]
    url = reverse("ulti_publish_results", args=[rnd.pk])
    # Not before every table has its result: nothing changes.
    assert clients["director"].post(url).status_code == 302
    rnd.refresh_from_db()
    assert rnd.results_published_at is None and live.is_live(rnd)
    play(codes[2])
    for role in ("other_director", "player", "anonymous"):
        clients[role].post(url)
    rnd.refresh_from_db()
    assert rnd.results_published_at is None
    assert clients["director"].post(url).status_code == 302
    rnd.refresh_from_db()
    assert rnd.results_published_at is not None and rnd.results_published_by == director
    assert not live.is_live(rnd)

    fragment = get(anonymous, "ulti_live_standings", rnd.event.pk, if_none_match=tag)
    assert fragment.status_code == 200
    text = fragment.content.decode()
    assert "élő, nem végleges" not in text and "data-live-final" in text
    assert "table-standings" in text  # the standings stay, final now
    for name, pk in (("ulti_standings", rnd.event.pk), ("ulti_round", rnd.pk)):
        page = get(anonymous, name, pk).content.decode()
        assert "élő, nem végleges" not in page and "js/live.js" not in page, name
    # Published again: nothing changes.
    first = rnd.results_published_at
    assert live.publish_results(rnd, director)[1] is False
    rnd.refresh_from_db()
    assert rnd.results_published_at == first


def test_a_draft_round_and_its_fragment_stay_hidden(clients, rnd, codes, director, play):
    play(codes[1])
    play(codes[2])
    draft = draw.generate_round(rnd.group, director)
    assert draft.status == Round.Status.DRAFT
    for role in ("anonymous", "player", "other_director"):
        for name in ("ulti_round", "ulti_live_round"):
            response = get(clients[role], name, draft.pk)
            assert response.status_code in (302, 403, 404), (role, name)
    assert get(clients["director"], "ulti_live_round", draft.pk).status_code == 200
    assert not live.is_live(draft)


def test_a_non_public_events_live_standings_stay_hidden(clients, rnd, codes):
    event = rnd.event
    type(event).objects.filter(pk=event.pk).update(status="draft")
    cache.clear()
    for role in ("anonymous", "player", "other_director"):
        assert get(clients[role], "ulti_live_standings", event.pk).status_code in (302, 403, 404), role


def test_the_event_page_marks_the_live_round_as_soon_as_its_codes_exist(clients, rnd, director):
    """The event page is cached for anonymous visitors: the first table code bumps it."""
    from ulti.services import table_entry

    anonymous = clients["anonymous"]
    url = reverse("ulti_event", args=[rnd.event.pk])
    assert "live-round" not in anonymous.get(url).content.decode()
    assert anonymous.get(url)["X-Page-Cache"] == "hit"
    table_entry.create_codes(rnd, director)
    after = anonymous.get(url)
    assert after["X-Page-Cache"] != "hit" and "live-round" in after.content.decode()


def test_the_home_page_links_the_live_round_on_its_day_until_its_results_are_published(
    clients, rnd, codes, director, play
):
    home, url = reverse("home"), reverse("ulti_round", args=[rnd.pk])
    with freeze_time("2026-05-02 12:00"):  # the event's day
        page = clients["anonymous"].get(home).content.decode()
        assert 'id="live-now"' in page and url in page
    with freeze_time("2026-05-03 12:00"):
        assert 'id="live-now"' not in clients["anonymous"].get(home).content.decode()
    with freeze_time("2026-05-02 12:00"):
        for code in codes.values():
            play(code)
        live.publish_results(rnd, director)
        assert 'id="live-now"' not in clients["anonymous"].get(home).content.decode()
