"""A score sheet saved part-way through the round and finished later: the partial save writes no round
version (no RoundUpload, no ScoreSheet); finishing does, with the same totals as a sheet typed in one go."""

import re

import pytest
from django.urls import reverse

from federation.models import Role
from ulti.models import RoundUpload, ScoreSheet, SheetDraft

from . import test_sheet_entry as entry
from .test_sheet_entry import engine_total, form_data, records

english = entry.english  # autouse: the English wording
played = entry.played  # the published round of two tables

pytestmark = pytest.mark.django_db


def _chosen_bid(page: str, deal: int) -> str:
    select = page.split(f'name="d{deal}_bid"', 1)[1].split("</select>", 1)[0]
    found = re.search(r'<option value="([^"]*)" selected', select)
    return found.group(1) if found else ""


def test_save_part_way_then_finish(client, played, django_capture_on_commit_callbacks):
    event, user, rnd, table, other, keys = played
    uploads_before = RoundUpload.objects.count()
    client.force_login(user)
    url = reverse("ulti_sheet", args=[table.pk])
    response = client.post(url, {**form_data(keys, records(keys, 5)), "partial": "1"})
    assert response.status_code == 302 and response["Location"] == url
    draft = SheetDraft.objects.get(table=table)
    assert [number for number, _record in draft.deals] == [1, 2, 3, 4, 5] and draft.saved_by == user
    assert (
        RoundUpload.objects.count() == uploads_before and not ScoreSheet.objects.filter(table=table).exists()
    )
    # Later: the form comes back with the five deals, and says it is not a result yet.
    page = client.get(url).content.decode()
    assert 'id="sheet-draft"' in page
    assert [_chosen_bid(page, n) for n in range(1, 7)] == [r["bid"] for _n, r in records(keys, 5)] + [""]
    # More deals part-way: the same draft, updated.
    client.post(url, {**form_data(keys, records(keys, 8)), "partial": "1"})
    assert len(SheetDraft.objects.get(table=table).deals) == 8
    # Finishing writes the round version and removes the draft.
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, form_data(keys, records(keys)))
    assert response.status_code == 302
    assert ScoreSheet.objects.get(table=table).totals == engine_total(keys)
    assert RoundUpload.objects.count() == uploads_before + 1
    assert not SheetDraft.objects.filter(table=table).exists()
    assert 'id="sheet-draft"' not in client.get(url).content.decode()


def test_a_deal_not_complete_yet_is_kept_as_typed(client, played):
    event, user, rnd, table, other, keys = played
    client.force_login(user)
    data = form_data(keys, records(keys, 3))
    data["d3_ulti"] = ""  # the ulti of deal 3 not played out yet: a finished sheet would refuse it
    client.post(reverse("ulti_sheet", args=[table.pk]), {**data, "partial": "1"})
    assert SheetDraft.objects.get(table=table).deals[2][1]["results"] == {"parti": "won"}
    response = client.post(reverse("ulti_sheet", args=[table.pk]), data)
    assert response.status_code == 200 and not ScoreSheet.objects.filter(table=table).exists()


@pytest.mark.usefixtures("english_pages")
def test_nothing_entered_is_not_saved(client, played):
    event, user, rnd, table, other, keys = played
    client.force_login(user)
    response = client.post(reverse("ulti_sheet", args=[table.pk]), {"partial": "1"}, follow=True)
    assert "No deal is entered yet" in response.content.decode()
    assert not SheetDraft.objects.exists()


@pytest.mark.parametrize("who", ["anonymous", "player", "club_admin", "other_staff"])
def test_only_who_runs_the_event_saves_part_way(client, played, make_user, mbsz, ulti_club, who):
    event, user, rnd, table, other, keys = played
    users = {
        "player": lambda: make_user("jatekos@example.hu"),
        "club_admin": lambda: make_user("klub@example.hu", kind=Role.CLUB_ADMIN, club=ulti_club),
        "other_staff": lambda: make_user("staff@mbsz.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
    }
    if who != "anonymous":
        client.force_login(users[who]())
    response = client.post(
        reverse("ulti_sheet", args=[table.pk]), {**form_data(keys, records(keys, 4)), "partial": "1"}
    )
    assert response.status_code in (302, 403, 404)
    if response.status_code == 302:
        assert reverse("login") in response["Location"]
    assert not SheetDraft.objects.exists()


def test_the_events_staff_saves_part_way(client, played, make_user, mausz):
    event, user, rnd, table, other, keys = played
    client.force_login(make_user("staff@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz))
    client.post(reverse("ulti_sheet", args=[table.pk]), {**form_data(keys, records(keys, 4)), "partial": "1"})
    assert len(SheetDraft.objects.get(table=table).deals) == 4
