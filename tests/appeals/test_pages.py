"""Pages and permissions per role: who sees a case, who acts on it, what the public sees."""

import pytest
from django.urls import reverse

from appeals.models import Appeal, FederationSettings
from appeals.services import panel
from tournaments.models import EntryMember

from .conftest import decide, user_of

pytestmark = pytest.mark.django_db

ROLES = [
    "panel",
    "other_member",
    "party",
    "opponent",
    "other_player",
    "director",
    "staff",
    "ethics",
    "disciplinary",
    "anonymous",
]


def who(world, appeal, role):
    seated = {s.member_id for s in appeal.panel.all()}
    return {
        "panel": lambda: appeal.panel.first().member.user,
        "other_member": lambda: next(m.user for m in world.members if m.pk not in seated),
        "party": lambda: user_of(world.pairs[0], 1),
        "opponent": lambda: user_of(world.pairs[1]),
        "other_player": lambda: user_of(world.pairs[4]),
        "director": lambda: world.director,
        "staff": lambda: world.staff,
        "ethics": lambda: world.ethics,
        "disciplinary": lambda: world.disciplinary,
        "anonymous": lambda: None,
    }[role]()


def login(client, user):
    if user is not None:
        client.force_login(user)


@pytest.fixture
def seated_case(world, file_case):
    appeal = file_case()
    panel.form_panel(appeal, world.director)
    appeal.refresh_from_db()
    return appeal


# What each role may do with an open case (seen = the page answers; the rest are permissions).
MATRIX = {
    #               seen   hear   deposit panel  respond attach
    "panel": (True, True, False, False, False, True),
    "other_member": (False, False, False, False, False, False),
    "party": (True, False, False, False, True, True),
    "opponent": (True, False, False, False, False, True),
    "other_player": (False, False, False, False, False, False),
    "director": (True, False, True, True, False, True),
    "staff": (True, False, True, True, False, True),
    "ethics": (True, False, False, False, False, True),
    "disciplinary": (False, False, False, False, False, False),
    "anonymous": (False, False, False, False, False, False),
}
PERMS = ["hear_case", "confirm_deposit", "form_panel", "respond_to_appeal", "add_attachment"]


@pytest.mark.parametrize("role", ROLES)
def test_an_open_case_per_role(world, seated_case, client, role):
    from django.contrib.auth.models import AnonymousUser

    user = who(world, seated_case, role)
    login(client, user)
    seen, *allowed = MATRIX[role]
    response = client.get(reverse("appeal_detail", args=[seated_case.pk]))
    assert response.status_code == (200 if seen else 404)
    actor = user or AnonymousUser()
    assert [actor.has_perm(f"appeals.{p}", seated_case) for p in PERMS] == allowed
    listed = client.get(reverse("appeals")).context["open_cases"]
    assert (seated_case in listed) == seen


def test_a_statement_by_anyone_but_the_panel_is_refused(world, seated_case, client):
    url = reverse("appeal_statement", args=[seated_case.pk])
    data = {"speaker": "director", "speaker_name": "TV", "text": "..."}
    client.force_login(user_of(world.pairs[0]))
    assert client.post(url, data).status_code == 403
    client.force_login(who(world, seated_case, "other_member"))
    assert client.post(url, data).status_code == 404
    client.force_login(who(world, seated_case, "panel"))
    assert client.post(url, data).status_code == 302
    assert seated_case.statements.count() == 1


def test_a_party_cannot_read_another_case(world, file_case, client):
    first = file_case()
    other = file_case(entry=world.pairs[2], respondent=world.pairs[3], board=9)
    client.force_login(user_of(world.pairs[0]))
    assert client.get(reverse("appeal_detail", args=[first.pk])).status_code == 200
    assert client.get(reverse("appeal_detail", args=[other.pk])).status_code == 404
    assert client.get(reverse("appeal-detail", args=[other.pk])).status_code == 404


def test_the_public_sees_only_published_cases_anonymised_where_set(
    world, heard_case, file_case, client, fake_effect
):
    decided = heard_case()
    decide(decided, [s.member.user for s in decided.panel.all()])
    still_open = file_case(entry=world.pairs[2], respondent=world.pairs[3], board=9)
    names = world.pairs[0].members.first().person.full_name
    page = client.get(reverse("appeals"))
    assert list(page.context["page"]) == [decided] and not page.context["open_cases"]
    assert client.get(reverse("appeal_detail", args=[still_open.pk])).status_code == 404
    detail = client.get(reverse("appeal_detail", args=[decided.pk])).content.decode()
    assert names in detail and "A döntés helyben marad." in detail
    assert 'id="timeline"' not in detail
    FederationSettings.objects.create(federation=world.event.federation, anonymise_public=True)
    detail = client.get(reverse("appeal_detail", args=[decided.pk])).content.decode()
    assert names not in detail and "A döntés helyben marad." in detail
    assert names not in client.get(reverse("appeals")).content.decode()
    client.force_login(user_of(world.pairs[0]))  # a party still sees the names
    assert names in client.get(reverse("appeal_detail", args=[decided.pk])).content.decode()


def test_the_full_path_through_the_pages(world, client, fake_effect):
    """File, confirm, deposit, panel, hearing, decision, vote, publish: every step through its page."""
    from appeals.models import Intention
    from appeals.services import filing

    from .conftest import at

    event, session, entry = world.event, world.sessions[0], world.pairs[0]
    director = world.director
    client.force_login(director)
    desk = reverse("appeals_event", args=[event.pk])
    assert client.get(desk).status_code == 200
    assert client.post(reverse("appeals_event_start", args=[event.pk])).status_code == 302
    Intention.objects.create(
        session=session, entry=entry, source="director", recorded_by=director, recorded_at=at(12)
    )
    filing.end_session(session, director, at=at(13))
    from freezegun import freeze_time

    with freeze_time(at(13, 5)):
        client.force_login(user_of(entry))
        response = client.post(
            reverse("appeal_file", args=[event.pk]),
            {
                "session": session.pk,
                "board_number": 7,
                "ns_pair": "3",
                "ew_pair": "5",
                "appellant_pair": "3",
                "respondent_entry": world.pairs[1].pk,
                "director": director.pk,
                "ruling": "Az eredmény áll.",
                "request": "4S-1.",
                "statement": "Hezitálás után.",
            },
        )
        appeal = Appeal.objects.get()
        assert response.status_code == 302 and response.url == reverse("appeal_detail", args=[appeal.pk])
        client.force_login(user_of(entry, 1))
        client.post(reverse("appeal_agree", args=[appeal.pk]))
    client.force_login(director)
    client.post(reverse("appeal_deposit", args=[appeal.pk]))
    client.post(reverse("appeal_panel", args=[appeal.pk]))
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.HEARING
    users = [s.member.user for s in appeal.panel.all()]
    client.force_login(users[0])
    for speaker in ("director", "appellant", "respondent"):
        client.post(
            reverse("appeal_statement", args=[appeal.pk]),
            {"speaker": speaker, "speaker_name": "x", "text": "y"},
        )
    client.post(
        reverse("appeal_propose", args=[appeal.pk]),
        {
            "outcome": "changed",
            "text": "4S-1.",
            "board_number": 7,
            "ns_pair": "3",
            "ew_pair": "5",
            "ns_score": -50,
        },
    )
    decision = appeal.decisions.get()
    for user in users[1:]:
        client.force_login(user)
        client.post(reverse("appeal_vote", args=[appeal.pk, decision.pk]), {"agrees": "1"})
    client.post(reverse("appeal_publish", args=[appeal.pk, decision.pk]))
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.DECIDED and fake_effect == [appeal.decisions.get()]
    client.logout()
    assert "4S-1." in client.get(reverse("appeal_detail", args=[appeal.pk])).content.decode()


def test_the_event_desk_is_for_the_director_and_the_committee(world, client):
    url = reverse("appeals_event", args=[world.event.pk])
    for user, status in ((world.director, 200), (world.members[4].user, 200), (user_of(world.pairs[0]), 403)):
        client.force_login(user)
        assert client.get(url).status_code == status


def test_a_committee_member_added_on_the_desk_gets_the_role(world, client, make_user):
    from federation.models import Role

    newcomer = make_user("uj.tag@example.hu")
    client.force_login(world.director)
    client.post(
        reverse("appeals_committee_add", args=[world.event.pk]),
        {"email": "uj.tag@example.hu", "is_alternate": "on"},
    )
    assert Role.objects.filter(user=newcomer, kind=Role.APPEALS, event=world.event).exists()


def test_discipline_pages(world, client):
    person = world.pairs[0].members.first().person
    client.force_login(world.director)
    url = reverse("appeals_discipline", args=[world.event.pk])
    client.post(url, {"person": person.pk, "kind": "event_excl", "reason": "Durva modor."})
    measure = world.event.discipline_measures.get()
    assert measure.status == "awaiting"
    client.force_login(world.members[0].user)
    assert client.get(url).status_code == 200
    client.post(reverse("appeals_consent", args=[world.event.pk, measure.pk]), {"agrees": "1"})
    measure.refresh_from_db()
    assert measure.status == "in_force"
    client.force_login(user_of(world.pairs[0]))
    assert client.get(url).status_code == 403


def test_the_disciplinary_committee_records_its_decision_and_the_staff_only_reads(world, client, mausz):
    from appeals.models import DisciplinaryDecision
    from appeals.services import discipline
    from federation.models import Role

    person = world.pairs[0].members.first().person
    report = discipline.report(
        world.event.federation, person, world.director, "Súlyos eset.", event=world.event
    )
    code = world.event.federation.code
    detail = reverse("appeals_report", args=[code, report.pk])
    posted = {
        "outcome": "suspension",
        "text": "Három hónap.",
        "starts_on": "2026-12-06",
        "ends_on": "2027-03-06",
    }
    client.force_login(world.director)
    assert client.get(reverse("appeals_reports", args=[code])).status_code == 404
    other = Role.objects.create(
        user=world.outsider, kind=Role.DISCIPLINARY, federation=mausz
    )  # another federation's committee
    client.force_login(world.outsider)
    assert client.get(reverse("appeals_reports", args=[code])).status_code == 404
    assert client.post(detail, posted).status_code == 404
    other.delete()
    client.force_login(world.staff)
    assert client.get(reverse("appeals_reports", args=[code])).status_code == 200
    assert client.get(detail).status_code == 200
    assert client.post(detail, posted).status_code == 403
    assert not DisciplinaryDecision.objects.filter(report=report).exists()
    client.force_login(world.disciplinary)
    assert client.get(reverse("appeals_reports", args=[code])).status_code == 200
    client.post(detail, posted)
    report.refresh_from_db()
    assert report.decision.suspension.person == person
    assert report.decision.recorded_by == world.disciplinary


def test_pages_of_unrelated_entries_are_not_offered(world, client):
    client.force_login(world.outsider)
    response = client.get(reverse("appeal_file", args=[world.event.pk]))
    assert response.status_code == 302 and response.url == reverse("appeals")
    assert not EntryMember.objects.filter(person__user=world.outsider).exists()
