"""Ulti on paper and in spreadsheets: a round's PDF and CSV export (the CSV the upload reads back), the
standings PDF, each with the page's permission."""

import datetime

import pytest
from django.utils import translation

from federation.models import Role
from tests.pdf_reading import pdf_of
from tournaments.models import Entry, EntryMember, Event
from ulti.engine import csv_upload
from ulti.models import RoundUpload
from ulti.services import draw, loading, setup, uploads

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(mausz, ulti_club, make_person, make_user, django_capture_on_commit_callbacks):
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Őszi ulti kupa",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 7, 4),
        status="approved",
        rule_set="mausz",
    )
    for n in range(6):
        entry = Entry.objects.create(event=event)
        name = {"first_name": "Győző", "last_name": "Kőműves"} if n == 0 else {}
        EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club, **name))
    user = make_user("pdf-ulti@example.hu", kind=Role.DIRECTOR, event=event)
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    results = {}
    for table in rnd.tables.all():
        ids = list(table.seats.order_by("position").values_list("participant_id", flat=True))
        results[table.number] = dict(
            zip(ids, (240 * table.number, -90, -240 * table.number + 90), strict=True)
        )
    with django_capture_on_commit_callbacks(execute=True):
        uploads.upload_round(rnd, results, user=user)
    draft = draw.generate_round(group, user)
    return event, user, rnd, draft, results


def test_round_csv_is_hungarian_excel_and_the_upload_reads_it_back(client, played):
    event, user, rnd, draft, results = played
    response = client.get(f"/ulti/rounds/{rnd.pk}/results.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    raw = b"".join(response.streaming_content)
    assert raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8")
    assert text.splitlines()[0].lstrip("\ufeff") == ";".join(csv_upload.EXPORT_HEADER)
    assert "Kőműves Győző" in text or "Győző Kőműves" in text
    lines = csv_upload.parse(text)
    assert len(lines) == 6
    # Round trip: the exported file uploaded again is the round's next version with the same forints.
    before = RoundUpload.objects.filter(round=rnd).count()
    upload = uploads.upload_csv(rnd, text, user=user)
    assert RoundUpload.objects.filter(round=rnd).count() == before + 1
    stored = loading.results_of([upload])
    table_ids = {t.number: t.pk for t in rnd.tables.all()}
    assert {table_ids[n]: got for n, got in results.items()} == stored


def test_round_csv_upload_also_reads_commas():
    assert [(x.table, x.player, x.forint) for x in csv_upload.parse("1,3,+240\n1,4,-90\n")] == [
        ("1", "3", 240),
        ("1", "4", -90),
    ]


def test_round_pdf_and_standings_pdf_render_in_hungarian(client, played):
    event, user, rnd, draft, results = played
    with translation.override("hu"):
        read = pdf_of(client.get(f"/ulti/rounds/{rnd.pk}/results.pdf", HTTP_ACCEPT_LANGUAGE="hu"))
        assert read.pages == 1 and read.ink > 1000
        assert "Kőműves" in read.text and "Őszi ulti kupa" in read.text
        standings = pdf_of(client.get(f"/ulti/events/{event.pk}/standings.pdf", HTTP_ACCEPT_LANGUAGE="hu"))
    assert standings.pages == 1 and standings.ink > 1000
    assert "Kőműves" in standings.text and "+240" in standings.text


def test_pages_link_their_pdf(client, played):
    event, user, rnd, draft, results = played
    assert f"/ulti/rounds/{rnd.pk}/results.pdf" in client.get(f"/ulti/rounds/{rnd.pk}/").content.decode()
    html = client.get(f"/ulti/events/{event.pk}/standings/").content.decode()
    assert f"/ulti/events/{event.pk}/standings.pdf" in html


def test_a_draft_round_and_a_private_event_are_404_for_others_like_their_pages(
    client, played, make_user, mausz
):
    event, user, rnd, draft, results = played
    for url in (f"/ulti/rounds/{draft.pk}/results.pdf", f"/ulti/rounds/{draft.pk}/results.csv"):
        assert client.get(url).status_code == 404
    client.force_login(make_user("stranger@example.hu"))
    assert client.get(f"/ulti/rounds/{draft.pk}/results.pdf").status_code == 404
    client.force_login(user)
    assert client.get(f"/ulti/rounds/{draft.pk}/results.pdf").status_code == 200
    client.logout()
    Event.objects.filter(pk=event.pk).update(status="draft")
    assert client.get(f"/ulti/events/{event.pk}/standings.pdf").status_code == 404
    assert client.get(f"/ulti/rounds/{rnd.pk}/results.csv").status_code == 404
    client.force_login(user)
    assert client.get(f"/ulti/events/{event.pk}/standings.pdf").status_code == 200


def _csv_rows(response):
    import csv
    import io

    raw = b"".join(response.streaming_content)
    assert raw.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(raw.decode("utf-8")[1:]), delimiter=";"))


def _expected_lines(event):
    """(place, start number, name, points, forint, tables, byes) of the stored standings after round 1."""
    from ulti.models import Standing

    rows = Standing.objects.filter(stage__event=event, group=None, after_round=1).order_by("order")
    return [
        (
            r.place_from if r.place_from == r.place_to else f"{r.place_from}\u2013{r.place_to}",
            r.participant.number,
            str(r.participant.person),
            r.points,
            r.forint,
            r.tables,
            r.byes,
        )
        for r in rows.select_related("participant__person")
    ]


def test_standings_csv_is_hungarian_excel_with_names_integer_forints_and_places(client, played):
    event, user, rnd, draft, results = played
    expected = _expected_lines(event)
    assert len(expected) == 6
    # The two seconds of the tables (-90 each) share a place; the forints are whole numbers with their sign.
    assert sorted(line[4] for line in expected) == sorted(
        f for table in results.values() for f in table.values()
    )
    assert any(isinstance(line[0], str) for line in expected)
    response = client.get(f"/ulti/events/{event.pk}/standings.csv", HTTP_ACCEPT_LANGUAGE="hu")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].endswith('.csv"')
    header, *lines = _csv_rows(response)
    assert header[:3] == ["Helyezés", header[1], "Játékos"] and header[1] in ("Sz.", "Rsz.")
    assert header[3] in ("Pont", "Pontszám") and header[4:] == ["Forint", "Asztalok", "Erőnyerő"]
    assert lines == [[str(v) for v in line] for line in expected]
    assert lines[0][0] == "1" and any(line[2] == "Kőműves Győző" for line in lines)
    assert "-90" in {line[4] for line in lines} and "480" in {line[4] for line in lines}


def test_standings_xlsx_has_the_same_lines_with_numbers_as_numbers(client, played):
    import io

    import openpyxl

    event, user, rnd, draft, results = played
    response = client.get(
        f"/ulti/events/{event.pk}/standings.xlsx?stage=1&after=1", HTTP_ACCEPT_LANGUAGE="hu"
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    header, *lines = list(sheet.iter_rows(values_only=True))
    assert header[0] == "Helyezés" and header[2] == "Játékos" and header[4] == "Forint"
    assert lines == _expected_lines(event)
    assert all(isinstance(line[4], int) for line in lines)


def test_standings_export_writes_a_formula_like_name_as_text(client, played):
    import io

    import openpyxl

    from federation.models import Person

    event, *_ = played
    participant = event.entries.order_by("pk").last().members.get().person
    Person.objects.filter(pk=participant.pk).update(last_name='=HYPERLINK("http://x")', first_name="")
    lines = _csv_rows(client.get(f"/ulti/events/{event.pk}/standings.csv"))
    assert any(line[2].startswith("'=HYPERLINK") for line in lines)
    sheet = openpyxl.load_workbook(
        io.BytesIO(client.get(f"/ulti/events/{event.pk}/standings.xlsx").content)
    ).active
    names = [row[2] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert any(str(n).startswith("'=HYPERLINK") for n in names)
    assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)


def test_standings_page_links_its_spreadsheets(client, played):
    event, *_ = played
    html = client.get(f"/ulti/events/{event.pk}/standings/").content.decode()
    assert f"/ulti/events/{event.pk}/standings.csv?stage=1&after=1" in html
    assert f"/ulti/events/{event.pk}/standings.xlsx?stage=1&after=1" in html


def test_standings_spreadsheets_of_a_hidden_event_are_refused_like_its_pdf(client, played, make_user):
    event, user, *_ = played
    Event.objects.filter(pk=event.pk).update(status="draft")
    for url in (f"/ulti/events/{event.pk}/standings.csv", f"/ulti/events/{event.pk}/standings.xlsx"):
        assert client.get(url).status_code == 404
        client.force_login(make_user(f"stranger-{url[-4:]}@example.hu"))
        assert client.get(url).status_code == 404
        client.force_login(user)
        assert client.get(url).status_code == 200
        client.logout()


def test_standings_spreadsheet_before_any_result_is_just_its_header(client, mausz, ulti_club):
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Üres ulti",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 7, 4),
        status="approved",
        rule_set="mausz",
    )
    header, *lines = _csv_rows(client.get(f"/ulti/events/{event.pk}/standings.csv"))
    assert lines == [] and len(header) == 7
