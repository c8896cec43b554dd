"""Region switches (MAUSZ 9 (2)): a switch after playing in another region needs the board's consent, which
the staff grant on the region-notice page; the entry check asks for it."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments.engine import eligibility
from tournaments.models import Entry, EntryMember, Event, RegionNotice
from tournaments.refusals import EntryRefused
from tournaments.services.entries import create_entry

pytestmark = pytest.mark.django_db
YEAR = timezone.localdate().year


def _qualifier(mausz, region, days, title):
    return Event.objects.create(
        federation=mausz,
        title=title,
        format=Event.Format.ULTI_INDIVIDUAL,
        event_class=Event.EventClass.NUB_QUALIFIER,
        qualifier_number=1,
        region=region,
        season=YEAR,
        start_date=timezone.localdate() + datetime.timedelta(days=days),
        status=Event.Status.APPROVED,
        entry_fee=0,
    )


@pytest.fixture
def switcher(ulti_player, mausz, regions):
    """A Duna-Tisza köz player who played a Duna-Tisza qualifier this season and gave notice for Felső-Tisza."""
    dt, ft = regions
    person = ulti_player(last_name="Váltó", first_name="Vilmos")
    played = _qualifier(mausz, dt, -10, "DT 1.")
    entry = Entry.objects.create(event=played, status=Entry.Status.ACTIVE)
    EntryMember.objects.create(entry=entry, person=person)
    RegionNotice.objects.create(person=person, federation=mausz, region=ft, season=YEAR)
    return person


@pytest.mark.usefixtures("english_pages")
def test_switch_after_playing_elsewhere_is_refused_without_consent(switcher, mausz, regions):
    event = _qualifier(mausz, regions[1], 10, "FT 1.")
    with pytest.raises(EntryRefused) as info:
        create_entry(event.pk, switcher.user, [switcher])
    assert "Váltó Vilmos" in " ".join(info.value.messages) and "consent" in " ".join(info.value.messages)
    assert not Entry.objects.filter(event=event).exists()


@pytest.mark.usefixtures("english_pages")
def test_switch_with_the_boards_consent_is_accepted(client, switcher, mausz, regions, staff_mausz):
    event = _qualifier(mausz, regions[1], 10, "FT 1.")
    notice = RegionNotice.objects.get(person=switcher)
    client.force_login(staff_mausz)
    page = client.get(reverse("region_notice_list")).content.decode()
    assert "Váltó Vilmos" in page and "played in another region" in page
    assert (
        client.post(reverse("region_notice_consent", args=[notice.pk]), {"consent": "grant"}).status_code
        == 302
    )
    notice.refresh_from_db()
    assert notice.board_consent and notice.recorded_by == staff_mausz
    assert create_entry(event.pk, switcher.user, [switcher]).status == Entry.Status.ACTIVE


def test_notice_without_earlier_play_elsewhere_needs_no_consent(ulti_player, mausz, regions):
    person = ulti_player()
    RegionNotice.objects.create(person=person, federation=mausz, region=regions[1], season=YEAR)
    event = _qualifier(mausz, regions[1], 10, "FT 1.")
    assert create_entry(event.pk, person.user, [person]).status == Entry.Status.ACTIVE


def test_play_in_another_season_does_not_count(ulti_player, mausz, regions):
    person = ulti_player()
    old = _qualifier(mausz, regions[0], -10, "DT tavaly")
    old.season = YEAR - 1
    old.save()
    EntryMember.objects.create(entry=Entry.objects.create(event=old), person=person)
    RegionNotice.objects.create(person=person, federation=mausz, region=regions[1], season=YEAR)
    event = _qualifier(mausz, regions[1], 10, "FT 1.")
    assert create_entry(event.pk, person.user, [person]).status == Entry.Status.ACTIVE


def test_withdrawing_consent_refuses_again(client, switcher, mausz, regions, staff_mausz):
    notice = RegionNotice.objects.get(person=switcher)
    notice.board_consent = True
    notice.save()
    client.force_login(staff_mausz)
    client.post(reverse("region_notice_consent", args=[notice.pk]), {"consent": "withdraw"})
    notice.refresh_from_db()
    assert not notice.board_consent
    with pytest.raises(EntryRefused):
        create_entry(_qualifier(mausz, regions[1], 10, "FT 1.").pk, switcher.user, [switcher])


def test_engine_rule_both_ways():
    terms = eligibility.EventTerms(
        federation="MAUSZ", start_date=datetime.date(YEAR, 6, 1), season=YEAR, event_format="ulti_individual",
        region_id=2, region_name="Felső-Tisza",
    )  # fmt: skip
    base = dict(person_id=1, name="X", birth_date=datetime.date(1970, 1, 1), gender="M", playing_region_id=1)
    assert [
        r.rule for r in eligibility.check_player(terms, eligibility.PlayerFacts(**base, region_notice=True))
    ] == []
    unconsented = eligibility.PlayerFacts(**base, region_notice=True, region_switch_unconsented=True)
    assert [r.rule for r in eligibility.check_player(terms, unconsented)] == ["region_switch"]
    assert [r.rule for r in eligibility.check_player(terms, eligibility.PlayerFacts(**base))] == ["region"]


def test_staff_records_a_notice_on_the_page(client, staff_mausz, ulti_player, regions):
    person = ulti_player()
    client.force_login(staff_mausz)
    number = person.memberships.get().member_number
    data = {"member_number": number, "region": regions[1].pk, "season": YEAR, "note": "költözés"}
    assert client.post(reverse("region_notice_list"), data).status_code == 302
    assert RegionNotice.objects.filter(
        person=person, region=regions[1], season=YEAR, recorded_by=staff_mausz
    ).exists()
    client.post(reverse("region_notice_list"), data)
    assert RegionNotice.objects.filter(person=person).count() == 1


@pytest.fixture
def roles(switcher, other_member, ulti_admin, staff_mbsz, staff_mausz, ulti_player):
    return {
        "person": switcher.user,
        "another_person": ulti_player().user,
        "club_admin": ulti_admin,
        "staff_of_other_federation": staff_mbsz,
        "staff": staff_mausz,
    }


@pytest.mark.parametrize(
    "role,list_status,consent_status",
    [
        ("person", 403, 404),
        ("another_person", 403, 404),
        ("club_admin", 403, 404),
        ("staff_of_other_federation", 403, 404),
        ("staff", 200, 302),
    ],
)
def test_region_notice_page_permissions(client, roles, switcher, role, list_status, consent_status):
    notice = RegionNotice.objects.get(person=switcher)
    client.force_login(roles[role])
    assert client.get(reverse("region_notice_list")).status_code == list_status
    assert client.post(
        reverse("region_notice_consent", args=[notice.pk]), {"consent": "grant"}
    ).status_code == (consent_status)
    notice.refresh_from_db()
    assert notice.board_consent is (role == "staff")


def test_anonymous_visitor_is_sent_to_login(client, switcher):
    notice = RegionNotice.objects.get(person=switcher)
    assert reverse("login") in client.get(reverse("region_notice_list")).url
    assert reverse("login") in client.post(reverse("region_notice_consent", args=[notice.pk])).url
    notice.refresh_from_db()
    assert not notice.board_consent
