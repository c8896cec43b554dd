"""VSz 23: a pair excluded from the whole event (with the Appeals Committee's consent) is reported to the
federation's Disciplinary Committee ("A súlyos fegyelmezetlenséget a tornavezető köteles jelenteni az MBSz
Fegyelmi Bizottságának is"): a case per player naming the exclusion, and mails to the players, the event's
director, the federation's staff and the committee. An exclusion from a session opens nothing."""

import pytest
from django.urls import reverse

from appeals.models import DisciplinaryReport, TimelineEntry
from appeals.services import discipline
from bridge import exclusion_reports
from bridge.models import Exclusion, SessionPair
from bridge.services import roster, setup
from demo import bridge_sample as sample
from federation.models import Notification, Role

from .test_event_exclusion import _upload
from .test_event_roster import START

pytestmark = pytest.mark.django_db
CONSENT = "Óvási Bizottság 2026/3. határozat"


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=14, title="Kizárás", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event):
    return setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )


@pytest.fixture
def people(make_user, mbsz, mausz, event, director):
    Notification.objects.all().delete()
    return {
        "staff": make_user("staff@mbsz.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
        "committee": make_user("fegyelmi@mbsz.hu", kind=Role.DISCIPLINARY, federation=mbsz),
        "other_staff": make_user("staff@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz),
        "other_committee": make_user("fegyelmi@mausz.hu", kind=Role.DISCIPLINARY, federation=mausz),
        "director": director,
    }


@pytest.fixture
def seat(event, session, director):
    _upload(session, director)
    seat = SessionPair.objects.get(section__session=session, number=3)
    for number, person in enumerate((seat.pair.player1, seat.pair.player2), start=1):
        person.email = f"jatekos{number}@example.hu"
        person.save()
    return seat


def _exclude(client, session, seat, scope, consent=CONSENT):
    return client.post(
        reverse("bridge_roster", args=[session.pk]),
        {
            "exclusion": "1",
            "ex-pair": seat.pair.pk,
            "ex-scope": scope,
            "ex-boards": "",
            "ex-reason": "tettlegesség a 4. asztalnál",
            "ex-committee_consent": consent,
        },
    )


def _mails(address):
    return list(Notification.objects.filter(recipient=address))


def test_an_event_exclusion_opens_a_case_per_player_and_mails_everybody_once(
    client, event, session, seat, people
):
    client.force_login(people["director"])
    response = _exclude(client, session, seat, Exclusion.EVENT)
    assert response.status_code == 302
    exclusion = Exclusion.objects.get(pair=seat.pair)
    reports = DisciplinaryReport.objects.filter(bridge_exclusion=exclusion).order_by("pk")
    assert [r.person for r in reports] == [seat.pair.player1, seat.pair.player2]
    for report in reports:
        assert report.event == event and report.federation == event.federation
        assert report.status == DisciplinaryReport.Status.OPEN and report.reported_by == people["director"]
        assert "tettlegesség a 4. asztalnál" in report.text and CONSENT in report.text
        assert list(report.timeline.values_list("action", flat=True)) == [TimelineEntry.Action.REPORTED]
    # One mail each: the pair's two players, the event's director, the federation's staff and committee.
    for address in ("jatekos1@example.hu", "jatekos2@example.hu"):
        (mail,) = _mails(address)
        assert event.title in mail.subject
        assert "tettlegesség a 4. asztalnál" in mail.body and CONSENT in mail.body
        assert reverse("event_detail", args=[event.pk]) in mail.body
        assert "/discipline/" not in mail.body  # the case page is the committee's, not the player's
    for address in ("td@example.hu", "staff@mbsz.hu", "fegyelmi@mbsz.hu"):
        (mail,) = _mails(address)
        assert event.title in mail.subject and seat.pair.display_name in mail.body
        for report in reports:
            assert reverse("appeals_report", args=["mbsz", report.pk]) in mail.body
    # Another federation's staff and committee hear nothing.
    assert not _mails("staff@mausz.hu") and not _mails("fegyelmi@mausz.hu")


def test_a_session_exclusion_opens_no_case_and_mails_nobody(client, session, seat, people):
    client.force_login(people["director"])
    assert _exclude(client, session, seat, Exclusion.SESSION, consent="").status_code == 302
    assert Exclusion.objects.filter(pair=seat.pair, scope=Exclusion.SESSION).exists()
    assert not DisciplinaryReport.objects.exists()
    assert not Notification.objects.exists()


def test_a_refused_exclusion_opens_no_case(client, session, seat, people):
    client.force_login(people["director"])
    response = _exclude(client, session, seat, Exclusion.EVENT, consent="")  # no committee consent
    assert response.status_code == 200 and response.context["ex_form"].errors
    assert not Exclusion.objects.exists() and not DisciplinaryReport.objects.exists()
    assert not Notification.objects.exists()


@pytest.mark.parametrize("who", ["staff", "committee", "other_staff", "player", "anonymous"])
def test_only_the_events_director_may_record_it(client, session, seat, people, who, make_user, event):
    if who == "player":
        seat.pair.player1.user = make_user("jatekos1@example.hu")
        seat.pair.player1.save()
        client.force_login(seat.pair.player1.user)
    elif who != "anonymous":
        client.force_login(people[who])
    response = _exclude(client, session, seat, Exclusion.EVENT)
    if who == "staff":  # the federation's staff run its events too
        assert response.status_code == 302 and DisciplinaryReport.objects.count() == 2
        return
    assert response.status_code in (302, 403, 404)
    if response.status_code == 302:
        assert "login" in response.url
    assert not Exclusion.objects.exists() and not DisciplinaryReport.objects.exists()


def test_the_case_page_links_back_to_the_event_and_pair(client, event, session, seat, people, make_user):
    exclusion = roster.record_exclusion(
        session, seat.pair, people["director"], Exclusion.EVENT, [], "tettlegesség", CONSENT
    )
    assert len(exclusion.reports) == 2
    report = exclusion.reports[0]
    url = reverse("appeals_report", args=["mbsz", report.pk])
    for who in ("committee", "staff"):
        client.force_login(people[who])
        page = client.get(url)
        assert page.status_code == 200, who
        html = page.content.decode()
        assert 'id="excluded-pair"' in html and seat.pair.display_name in html
        assert reverse("bridge_event", args=[event.pk]) in html
    for who in ("director", "other_staff", "other_committee"):
        client.force_login(people[who])
        assert client.get(url).status_code in (403, 404), who


def test_the_hook_opens_nothing_twice(session, seat, people):
    exclusion = roster.record_exclusion(
        session, seat.pair, people["director"], Exclusion.EVENT, [], "tettlegesség", CONSENT
    )
    mails = Notification.objects.count()
    assert discipline.report_event_exclusion(exclusion, people["director"]) == []
    assert DisciplinaryReport.objects.count() == 2 and Notification.objects.count() == mails


def test_bridge_reaches_appeals_only_through_the_registry(session, seat, people):
    exclusion_reports.unregister(discipline.report_event_exclusion)
    try:
        exclusion = roster.record_exclusion(
            session, seat.pair, people["director"], Exclusion.EVENT, [], "tettlegesség", CONSENT
        )
    finally:
        exclusion_reports.register(discipline.report_event_exclusion)
    assert exclusion.reports == [] and not DisciplinaryReport.objects.exists()
