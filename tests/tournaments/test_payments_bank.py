"""The bank statement import: a preview with matched and unmatched lines, then the confirmation; nothing
booked twice; a bad file refused naming the line with nothing changed; only the account's people import."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.engine.payments import reference_for
from tournaments.models import Entry, EntryMember, Payment
from tournaments.refusals import Refused
from tournaments.services import payments as service

pytestmark = pytest.mark.django_db


def enter(event, *people):
    entry = Entry.objects.create(event=event)
    for i, person in enumerate(people, start=1):
        EntryMember.objects.create(entry=entry, person=person, position=i, confirmed_at=timezone.now())
    return entry


@pytest.fixture
def entries(pairs_event, make_event, make_player, other_bridge_club):
    ours = enter(pairs_event, make_player(), make_player())
    second = enter(pairs_event, make_player(), make_player())
    theirs = enter(make_event(title="Másik klub", club=other_bridge_club), make_player(), make_player())
    return ours, second, theirs


def statement(ours, second, theirs, encoding="cp1250"):
    text = (
        "Könyvelés dátuma;Összeg;Partner neve;Közlemény\r\n"
        f"2026.11.05.;4 000,00;Kovács Péter;Nevezés {reference_for(ours.pk)} Őszi páros\r\n"
        f"2026.11.06.;2.000,00;Szűcs Ödön;{reference_for(second.pk).lower()}\r\n"
        "2026.11.06.;-1 500,00;OTP Bank;Számlavezetési díj\r\n"
        "2026.11.07.;4 000,00;Névtelen Béla;nevezés\r\n"
        f"2026.11.08.;4 000,00;Idegen;{reference_for(theirs.pk)}\r\n"
    )
    return text.encode(encoding)


def upload(client, url, data, name="kivonat.csv"):
    return client.post(url, {"statement": SimpleUploadedFile(name, data, content_type="text/csv")})


@pytest.fixture
def admin_client(club_admin):
    client = Client()
    client.force_login(club_admin)
    return client


@pytest.mark.usefixtures("english_pages")
def test_preview_then_confirm_books_the_matched_transfers_once(admin_client, bridge_club, entries):
    ours, second, theirs = entries
    url = reverse("club_bank_statement", args=[bridge_club.pk])
    data = statement(*entries)  # Windows-1250, as Hungarian banks export it
    response = upload(admin_client, url, data)
    assert response.status_code == 200
    html = response.content.decode()
    matched = html[html.index('id="statement-matched"') : html.index('id="statement-unmatched"')]
    unmatched = html[html.index('id="statement-unmatched"') :]
    assert "Kovács Péter" in matched and "Szűcs Ödön" in matched and "Őszi páros" in matched
    assert 'data-reason="not_credit"' in unmatched and 'data-reason="no_reference"' in unmatched
    assert 'data-reason="unknown_entry"' in unmatched  # another club's entry: not this account's
    assert re.search(r'<td class="num">6</td>', unmatched)  # line numbers of the file
    assert not Payment.objects.exists()  # the preview books nothing

    signed = re.search(r'name="signed" value="([^"]+)"', html).group(1)
    assert admin_client.post(url, {"signed": signed}).status_code == 302
    booked = {p.entry_id: p for p in Payment.objects.all()}
    assert {k: v.amount for k, v in booked.items()} == {ours.pk: 4000, second.pk: 2000}
    assert booked[ours.pk].method == Payment.Method.TRANSFER and booked[ours.pk].payee == "organiser"
    assert str(booked[ours.pk].paid_on) == "2026-11-05"
    assert "line 2" in booked[ours.pk].note.lower() and "Kovács Péter" in booked[ours.pk].note
    assert service.entry_payments(Entry.objects.get(pk=ours.pk)).state.status == "paid"
    assert service.entry_payments(Entry.objects.get(pk=second.pk)).state.status == "part_paid"

    # The same file again (and the same confirmation again) books nothing new.
    again = upload(admin_client, url, data).content.decode()
    assert again.count('data-reason="already_booked"') == 2
    assert 'name="signed"' not in again  # nothing left to confirm
    admin_client.post(url, {"signed": signed})
    assert Payment.objects.count() == 2


def test_a_bad_file_names_the_line_and_changes_nothing(admin_client, bridge_club, entries):
    ours = entries[0]
    url = reverse("club_bank_statement", args=[bridge_club.pk])
    data = (
        "Dátum;Összeg;Partner neve;Közlemény\n"
        f"2026.11.05.;4000;A;{reference_for(ours.pk)}\n"
        "2026.11.05.;négyezer;B;x\n"
    ).encode()
    response = upload(admin_client, url, data)
    assert response.status_code == 400
    assert "Line 3" in response.content.decode() or "3. sor" in response.content.decode()
    assert not Payment.objects.exists()


def test_an_undecodable_file_names_its_line(admin_client, bridge_club, entries):
    url = reverse("club_bank_statement", args=[bridge_club.pk])
    data = "Dátum;Összeg;Partner neve;Közlemény\n".encode() + b"2026.11.05.;4000;\xc3\x28;x\n"
    response = upload(admin_client, url, data)
    assert response.status_code == 400 and "2. sor" in response.content.decode()  # results' catalogue
    assert not Payment.objects.exists()


def test_a_tampered_confirmation_books_nothing(admin_client, bridge_club, entries):
    url = reverse("club_bank_statement", args=[bridge_club.pk])
    response = admin_client.post(url, {"signed": "forged:value"})
    assert response.status_code == 302 and not Payment.objects.exists()


def test_the_federations_staff_import_into_the_federations_account(staff_mbsz, mbsz, entries):
    ours, second, theirs = entries
    text = statement(*entries).decode("cp1250")
    booked = service.book_statement(mbsz, text, staff_mbsz)
    assert {p.entry_id for p in booked} == {ours.pk, second.pk, theirs.pk}
    assert {p.payee for p in booked} == {"federation"}
    assert service.book_statement(mbsz, text, staff_mbsz) == []


@pytest.mark.parametrize("who", ["other_club_admin", "staff_mausz", "player"])
def test_nobody_else_imports_into_the_clubs_account(request, who, bridge_club, entries):
    if who == "player":
        user = entries[0].members.first().person.user
    else:
        user = request.getfixturevalue(who)
    client = Client()
    client.force_login(user)
    url = reverse("club_bank_statement", args=[bridge_club.pk])
    assert client.get(url).status_code == 403
    assert upload(client, url, statement(*entries)).status_code == 403
    assert not Payment.objects.exists()


@pytest.mark.parametrize("who, code", [("club_admin", 403), ("staff_mausz", 403), ("staff_mbsz", 200)])
def test_only_the_federations_staff_import_into_its_account(request, who, code, mbsz):
    client = Client()
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("federation_bank_statement", args=["mbsz"])).status_code == code


@pytest.mark.usefixtures("english_pages")
def test_the_service_refuses_a_bad_file_with_the_line(club_admin, bridge_club):
    with pytest.raises(Refused) as refused:
        service.preview_statement(bridge_club, "Dátum;Összeg;Közlemény\n05.11.2026;100;x\n", club_admin)
    assert "Line 2" in refused.value.messages[0]
