"""Personal data: the privacy notice, consent at registration, the export, and the legal basis of a record
kept without an account."""

import csv
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from federation.models import Licence, PrivacyConsent
from federation.services import privacy

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_privacy_notice_is_public_and_linked_from_footer_and_registration(client):
    page = client.get(reverse("privacy_notice"))
    assert page.status_code == 200
    assert privacy.NOTICE_VERSION in page.content.decode()
    home = client.get(reverse("register")).content.decode()
    assert home.count(f'href="{reverse("privacy_notice")}"') >= 2  # footer and the form's note


def _registration(**extra):
    return {
        "email": "uj@example.hu",
        "first_name": "Új",
        "last_name": "Tag",
        "password1": "Hosszu-jelszo-2026",
        "password2": "Hosszu-jelszo-2026",
        **extra,
    }


def test_registration_without_consent_is_refused(client):
    response = client.post(reverse("register"), _registration())
    assert response.status_code == 200
    assert "privacy_consent" in response.context["form"].errors
    assert not User.objects.filter(username="uj@example.hu").exists()


def test_registration_records_consent_with_time_and_version(client):
    response = client.post(reverse("register"), _registration(privacy_consent="on"))
    assert response.status_code == 302
    consent = PrivacyConsent.objects.get(user__username="uj@example.hu")
    assert consent.notice_version == privacy.NOTICE_VERSION
    assert consent.given_at is not None


# --- the export ----------------------------------------------------------------------------------------


def test_export_json_holds_the_persons_data_and_nobody_elses(client, member, other_member, make_entry, mbsz):
    make_entry([member, other_member])
    Licence.objects.create(person=member, federation=mbsz, year=2026, number="L-77")
    client.force_login(member.user)
    response = client.get(reverse("my_data_export", args=["json"]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    for section in (
        "account",
        "person",
        "memberships",
        "entries",
        "results",
        "masterpoints",
        "appeals_filed",
    ):
        assert section in data
    assert data["account"][0]["email"] == "tag@example.hu"
    assert "password" not in data["account"][0]
    assert data["person"][0]["last_name"] == "Kovács"
    assert data["memberships"][0]["member_number"] == member.memberships.get().member_number
    assert data["licences"][0]["number"] == "L-77"
    assert len(data["entries"]) == 1 and data["entries"][0]["event"] == "Klub páros"
    assert "Szabó" not in response.content.decode()


def test_export_csv_is_semicolon_separated_utf8_with_bom(client, member):
    client.force_login(member.user)
    response = client.get(reverse("my_data_export", args=["csv"]))
    assert response.status_code == 200
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["section", "row", "field", "value"]
    assert ["person", "1", "last_name", "Kovács"] in rows
    assert ["person", "1", "first_name", "Péter"] in rows


def test_export_csv_writes_a_formula_like_name_as_text(client, member):
    """The export is opened in Excel: a value the person typed that looks like a formula stays text."""
    member.first_name = '=HYPERLINK("http://example.invalid")'
    member.save(update_fields=["first_name"])
    client.force_login(member.user)
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("my_data_export", args=["csv"])).content.decode("utf-8-sig")),
            delimiter=";",
        )
    )
    assert ["person", "1", "first_name", '\'=HYPERLINK("http://example.invalid")'] in rows


def test_export_of_an_unknown_format_is_404(client, member):
    client.force_login(member.user)
    assert client.get(reverse("my_data_export", args=["xml"])).status_code == 404


@pytest.mark.parametrize(
    "name,args", [("my_data", []), ("my_data_export", ["json"]), ("my_data_export", ["csv"])]
)
def test_anonymous_visitor_is_sent_to_login(client, name, args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 302 and reverse("login") in response.url


def test_account_without_member_record_exports_its_account_only(client, make_user):
    user = make_user("fiok@example.hu")
    client.force_login(user)
    data = json.loads(client.get(reverse("my_data_export", args=["json"])).content)
    assert data["account"][0]["email"] == "fiok@example.hu"
    assert data["person"] == [] and data["entries"] == []


def test_my_data_page_renders(client, member):
    client.force_login(member.user)
    page = client.get(reverse("my_data"))
    assert page.status_code == 200
    assert reverse("my_data_export", args=["csv"]) in page.content.decode()


# --- the legal basis of a record without an account ------------------------------------------------------


@pytest.fixture
def offline_member(make_person, mbsz, bridge_club):
    return make_person(federation=mbsz, club=bridge_club, last_name="Offline")


def test_club_admin_records_the_legal_basis(client, club_admin, offline_member):
    client.force_login(club_admin)
    response = client.post(reverse("data_basis", args=[offline_member.pk]), {"data_basis": "consent"})
    assert response.status_code == 302
    offline_member.refresh_from_db()
    assert offline_member.data_basis == "consent"
    assert offline_member.data_basis_recorded_by == club_admin
    assert offline_member.data_basis_recorded_at is not None


def test_legal_basis_is_required(client, club_admin, offline_member):
    client.force_login(club_admin)
    response = client.post(reverse("data_basis", args=[offline_member.pk]), {"data_basis": ""})
    assert response.status_code == 200
    offline_member.refresh_from_db()
    assert offline_member.data_basis == ""


@pytest.fixture
def data_basis_roles(club_admin, other_club_admin, staff_mbsz, staff_mausz, other_member, make_user):
    return {
        "club_admin": club_admin,
        "staff": staff_mbsz,
        "other_club_admin": other_club_admin,
        "staff_of_other_federation": staff_mausz,
        "another_person": other_member.user,
        "plain_account": make_user("senki@example.hu"),
    }


@pytest.mark.parametrize(
    "role,allowed",
    [
        ("club_admin", True),
        ("staff", True),
        ("other_club_admin", False),
        ("staff_of_other_federation", False),
        ("another_person", False),
        ("plain_account", False),
    ],
)
def test_data_basis_page_permissions(client, data_basis_roles, offline_member, role, allowed):
    client.force_login(data_basis_roles[role])
    url = reverse("data_basis", args=[offline_member.pk])
    assert client.get(url).status_code == (200 if allowed else 404)
    client.post(url, {"data_basis": "membership"})
    offline_member.refresh_from_db()
    assert (offline_member.data_basis == "membership") is allowed


def test_data_basis_page_sends_anonymous_visitor_to_login(client, offline_member):
    response = client.get(reverse("data_basis", args=[offline_member.pk]))
    assert response.status_code == 302 and reverse("login") in response.url
