"""Where the new pages are reached from: the administration menu, the person page."""

import pytest
from django.urls import reverse
from django.utils import timezone

from federation.models import Licence
from federation.services import licences

pytestmark = pytest.mark.django_db
YEAR = timezone.localdate().year


def test_ulti_staff_menu_has_licences_and_region_notices(client, staff_mausz):
    client.force_login(staff_mausz)
    page = client.get(reverse("home")).content.decode()
    for name in ("licence_list", "region_notice_list", "member_request_list", "erasure_requests"):
        assert reverse(name) in page


def test_bridge_staff_menu_has_no_ulti_pages(client, staff_mbsz):
    client.force_login(staff_mbsz)
    page = client.get(reverse("home")).content.decode()
    assert reverse("member_request_list") in page and reverse("erasure_requests") in page
    assert reverse("licence_list") not in page and reverse("region_notice_list") not in page


def test_player_sees_no_staff_pages(client, member):
    client.force_login(member.user)
    page = client.get(reverse("home")).content.decode()
    assert reverse("member_request_list") not in page and reverse("licence_list") not in page
    assert reverse("privacy_notice") in page


def test_person_page_offers_the_legal_basis_to_the_club_admin_only(
    client, club_admin, make_person, mbsz, bridge_club
):
    offline = make_person(federation=mbsz, club=bridge_club)
    url = reverse("data_basis", args=[offline.pk])
    client.force_login(club_admin)
    assert url in client.get(reverse("person_detail", args=[offline.pk])).content.decode()
    client.logout()
    assert url not in client.get(reverse("person_detail", args=[offline.pk])).content.decode()


@pytest.mark.usefixtures("english_pages")
def test_person_page_shows_a_revoked_licence_as_revoked(client, ulti_player, mausz, staff_mausz):
    player = ulti_player(licence_year=YEAR)
    licences.revoke(Licence.objects.get(person=player), staff_mausz, "eltiltás")
    client.force_login(player.user)
    page = client.get(reverse("person_detail", args=[player.pk])).content.decode()
    assert "revoked" in page
