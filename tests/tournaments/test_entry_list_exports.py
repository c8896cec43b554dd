"""The entry list as PDF, Hungarian CSV and XLSX: only for the event's organisers and director (the entry
management page's permission); a long list spans pages with its header repeated."""

import csv
import io

import openpyxl
import pytest
from django.urls import reverse
from django.utils import translation

from federation.models import Role
from tests.pdf_reading import pdf_of

pytestmark = pytest.mark.django_db


def _enter(client, event, make_player, club_admin, pairs, names=None):
    client.force_login(club_admin)
    url = reverse("entry_add", args=[event.pk])
    for n in range(pairs):
        extra = names if (names and n == 0) else {}
        me, partner = make_player(**extra), make_player()
        data = {
            "player_1": me.memberships.get().member_number,
            "player_2": partner.memberships.get().member_number,
        }
        assert client.post(url, data).status_code == 302
    client.logout()


def test_the_organiser_gets_the_pdf_csv_and_xlsx(client, pairs_event, make_player, club_admin):
    _enter(client, pairs_event, make_player, club_admin, 3, {"first_name": "Győző", "last_name": "Kőrösi"})
    client.force_login(club_admin)
    with translation.override("hu"):
        read = pdf_of(client.get(reverse("entry_list_pdf", args=[pairs_event.pk]), HTTP_ACCEPT_LANGUAGE="hu"))
    assert read.pages == 1 and read.ink > 1000 and "Kőrösi Győző" in read.text and "Klub páros" in read.text
    response = client.get(reverse("entry_list_csv", args=[pairs_event.pk]))
    raw = b"".join(response.streaming_content)
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert len(rows) == 4 and len(rows[0]) == 6 and "Kőrösi Győző" in rows[1][3]
    book = openpyxl.load_workbook(
        io.BytesIO(client.get(reverse("entry_list_xlsx", args=[pairs_event.pk])).content)
    )
    sheet = list(book.active.iter_rows(values_only=True))
    assert len(sheet) == 4 and "Kőrösi Győző" in sheet[1][3]
    page = client.get(reverse("manage_entries", args=[pairs_event.pk])).content.decode()
    assert reverse("entry_list_pdf", args=[pairs_event.pk]) in page
    assert reverse("entry_list_xlsx", args=[pairs_event.pk]) in page


def test_a_long_entry_list_spans_pages(client, pairs_event, make_player, club_admin):
    _enter(client, pairs_event, make_player, club_admin, 40)
    client.force_login(club_admin)
    read = pdf_of(client.get(reverse("entry_list_pdf", args=[pairs_event.pk])))
    assert read.pages >= 2
    assert read.text.count("Játékosok") >= read.pages  # the header on every page (the tests run in Hungarian)
    assert f"1. / {read.pages}." in read.text


def test_others_are_refused(client, pairs_event, make_user, other_club_admin, make_player):
    urls = [
        reverse(name, args=[pairs_event.pk])
        for name in ("entry_list_pdf", "entry_list_csv", "entry_list_xlsx")
    ]
    for url in urls:
        assert client.get(url).status_code == 302  # anonymous: the login page
    player = make_player()
    other_director = make_user("td-elsewhere@example.hu")
    for user in (other_club_admin, player.user, other_director):
        client.force_login(user)
        assert [client.get(url).status_code for url in urls] == [403, 403, 403]
    director = make_user("td-entries@example.hu", kind=Role.DIRECTOR, event=pairs_event)
    client.force_login(director)
    assert [client.get(url).status_code for url in urls] == [200, 200, 200]
