"""Issue #15: every id the appeals API takes is checked against the caller's scope and the case's event.

A foreign id (a user who is not the event's director, another event's entry, session or committee member,
another case's decision, another federation's user) is a 400 naming the field, and nothing changes.
"""

import datetime
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from freezegun import freeze_time
from rest_framework.test import APIClient

from appeals.models import Appeal, CommitteeMember, Decision, Intention, Measure, SessionEnd, Vote
from appeals.services import committee, filing
from appeals.services import decision as decisions
from federation.models import Notification, Role
from tournaments.models import Entry, EntryMember, Event, Session

from .conftest import DAY, at, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def elsewhere(world, mbsz, mausz, bridge_club, make_person, make_user):
    """Another event of the same federation (its session, an entry, a committee member) and a user of the
    other federation (MAUSZ staff)."""
    event = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Másik verseny",
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=DAY + datetime.timedelta(days=1),
        status=Event.Status.APPROVED,
    )
    session = Session.objects.create(event=event, name="Másik forduló", starts_at=at(10))
    entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE)
    EntryMember.objects.create(entry=entry, person=make_person(federation=mbsz, club=bridge_club), position=1)
    member = committee.add_member(event, make_user("masik.tag@example.hu"), by=world.director)
    staff = make_user("mausz.staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mausz)
    return event, session, entry, member, staff


def _filing(world, **overrides):
    entry = world.pairs[0]
    Intention.objects.create(
        session=world.sessions[0],
        entry=entry,
        board_number=7,
        source=Intention.Source.DIRECTOR,
        recorded_by=world.director,
        recorded_at=at(12, 30),
    )
    filing.end_session(world.sessions[0], world.director, at=at(13))
    data = {
        "session": world.sessions[0].pk,
        "entry": entry.pk,
        "respondent_entry": world.pairs[1].pk,
        "board_number": 7,
        "ns_pair": "3",
        "ew_pair": "5",
        "director": world.director.pk,
        "ruling": "Áll.",
        "request": "4S-1",
        "statement": "Hezitálás.",
    }
    data.update(overrides)
    return data


def test_the_appellant_names_only_one_of_the_events_directors(world, api, elsewhere):
    _event, _session, _entry, _member, other_staff = elsewhere
    api.force_authenticate(user_of(world.pairs[0]))
    chair = world.members[0].user
    with freeze_time(at(13, 5)):
        for foreign in (other_staff, world.staff, chair, user_of(world.pairs[3])):
            response = api.post(reverse("appeal-list"), _filing(world, director=foreign.pk), format="json")
            assert response.status_code == 400, foreign
            assert "director" in response.json()
        assert not Appeal.objects.exists()
        assert not Notification.objects.filter(recipient__in=[other_staff.email, world.staff.email]).exists()
        # The service refuses it too (the web form's list is not the only guard).
        with pytest.raises(ValidationError) as refused:
            filing.file_appeal(
                user_of(world.pairs[0]),
                session=world.sessions[0],
                entry=world.pairs[0],
                board_number=7,
                ruling="x",
                request="y",
                statement="z",
                director=chair,
                now=at(13, 5),
            )
        assert "director" in refused.value.message_dict
        response = api.post(reverse("appeal-list"), _filing(world), format="json")
    assert response.status_code == 201
    appeal = Appeal.objects.get()
    assert appeal.director == world.director
    # The committee member was not taken for the director: he may sit on the panel.
    from appeals.services.panel import conflicts

    assert not conflicts(appeal, world.members[0])


def test_the_opponents_entry_is_one_of_the_events(world, api, elsewhere):
    _event, _session, foreign_entry, _member, _staff = elsewhere
    api.force_authenticate(user_of(world.pairs[0]))
    with freeze_time(at(13, 5)):
        response = api.post(
            reverse("appeal-list"), _filing(world, respondent_entry=foreign_entry.pk), format="json"
        )
        assert response.status_code == 400 and "respondent_entry" in response.json()
        response = api.post(reverse("appeal-list"), _filing(world, entry=foreign_entry.pk), format="json")
        assert response.status_code == 400 and "entry" in response.json()
    assert not Appeal.objects.exists()


def test_a_panel_member_is_one_of_the_events_committee(world, api, file_case, elsewhere):
    _event, _session, _entry, foreign_member, _staff = elsewhere
    appeal = file_case()
    api.force_authenticate(world.director)
    response = api.post(
        reverse("appeal-detail", args=[appeal.pk]) + "panel/", {"member": foreign_member.pk}, format="json"
    )
    assert response.status_code == 400 and "member" in response.json()
    assert not appeal.panel.exists()


def test_a_vote_or_publication_names_a_decision_of_this_case(world, api, heard_case, fake_effect):
    appeal = heard_case()
    other = heard_case(entry=world.pairs[2], respondent=world.pairs[3])
    users = [s.member.user for s in appeal.panel.all()]
    foreign = decisions.propose(other, users[0], outcome="upheld", text="Másik ügy.")
    api.force_authenticate(users[1])
    case = reverse("appeal-detail", args=[appeal.pk])
    for step, body in (
        ("vote/", {"decision": foreign.pk, "agrees": True}),
        ("publish/", {"decision": foreign.pk}),
    ):
        response = api.post(case + step, body, format="json")
        assert response.status_code == 400 and "decision" in response.json(), step
    assert Vote.objects.filter(decision=foreign).count() == 1
    foreign.refresh_from_db()
    assert foreign.status == Decision.Status.PROPOSED


def test_the_desk_takes_only_its_own_sessions_entries_and_members(world, api, elsewhere):
    foreign_event, foreign_session, foreign_entry, foreign_member, _staff = elsewhere
    api.force_authenticate(world.director)
    desk = reverse("appeal-event-detail", args=[world.event.pk])
    response = api.post(f"{desk}end-session/", {"session": foreign_session.pk}, format="json")
    assert response.status_code == 400 and "session" in response.json()
    assert not SessionEnd.objects.exists()
    for body, field in (
        ({"session": foreign_session.pk, "entry": world.pairs[0].pk}, "session"),
        ({"session": world.sessions[0].pk, "entry": foreign_entry.pk}, "entry"),
    ):
        response = api.post(f"{desk}intentions/", body, format="json")
        assert response.status_code == 400 and field in response.json()
    assert not Intention.objects.exists()
    response = api.post(
        f"{desk}committee/leave-decision/", {"member": foreign_member.pk, "consents": True}, format="json"
    )
    assert response.status_code == 400 and "member" in response.json()
    foreign_member.refresh_from_db()
    assert foreign_member.left_at is None


def test_a_committee_member_is_not_another_federations_user(world, api, elsewhere):
    _event, _session, _entry, _member, other_staff = elsewhere
    api.force_authenticate(world.director)
    desk = reverse("appeal-event-detail", args=[world.event.pk])
    response = api.post(f"{desk}committee/", {"user": other_staff.pk, "is_alternate": True}, format="json")
    assert response.status_code == 400 and "user" in response.json()
    assert not CommitteeMember.objects.filter(user=other_staff).exists()
    assert not Role.objects.filter(user=other_staff, kind=Role.APPEALS).exists()


def test_a_measure_names_this_events_session_and_player(world, api, elsewhere):
    foreign_event, foreign_session, foreign_entry, _member, _staff = elsewhere
    player = world.pairs[0].members.first().person
    stranger = foreign_entry.members.first().person
    api.force_authenticate(world.director)
    url = reverse("discipline-measure-list")
    base = {"event": world.event.pk, "person": player.pk, "kind": "session_excl", "reason": "Durva."}
    for changes, field in (
        ({"session": foreign_session.pk}, "session"),
        ({"person": stranger.pk, "session": world.sessions[0].pk}, "person"),
    ):
        response = api.post(url, {**base, **changes}, format="json")
        assert response.status_code == 400 and field in response.json(), field
    # An event he does not run: answered like one he cannot see.
    changes = {"event": foreign_event.pk, "person": stranger.pk, "session": foreign_session.pk}
    assert api.post(url, {**base, **changes}, format="json").status_code == 404
    assert not Measure.objects.exists()


def test_an_attachment_keeps_no_dangerous_name_or_type(world, api, file_case, client, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    appeal = file_case()
    url = reverse("appeal-attachments", args=[appeal.pk])
    api.force_authenticate(user_of(world.pairs[0]))
    png = b"\x89PNG\r\n\x1a\n" + b"<html><script>alert(1)</script></html>"
    refused = api.post(url, {"file": SimpleUploadedFile("lap.html", png, "text/html")}, format="multipart")
    assert refused.status_code == 400 and ".html" in str(refused.json())
    assert not appeal.attachments.exists()
    stored = api.post(url, {"file": SimpleUploadedFile('a"b<x>;.jpg', png, "text/html")}, format="multipart")
    assert stored.status_code == 201
    attachment = appeal.attachments.get()
    # Stored under a generated name with the sniffed extension; the uploaded name is only a safe label.
    assert attachment.file.name.startswith(f"appeals/{appeal.pk}/") and attachment.file.name.endswith(".png")
    assert re.fullmatch(r"[0-9a-f]{32}\.png", attachment.file.name.rsplit("/", 1)[-1])
    assert attachment.original_name.endswith(".png") and not set('"<>;') & set(attachment.original_name)
    assert attachment.content_type == "image/png"
    # An older row that kept a dangerous name and type is still served safely.
    attachment.original_name, attachment.content_type = "lap.html", "text/html"
    attachment.save()
    client.force_login(user_of(world.pairs[0]))
    response = client.get(reverse("appeal_attachment", args=[appeal.pk, attachment.pk]))
    assert response["Content-Type"] == "application/octet-stream"
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;") and not disposition.rstrip('"').endswith(".html")
    assert response["X-Content-Type-Options"] == "nosniff"


def test_the_board_and_pair_numbers_of_an_appeal_are_the_sessions(scored_bridge_event, make_user, api):
    """Once the session's results are in, the appeal's board and pairs are checked against them."""
    pytest.importorskip("bridge.services.adjustments")
    from bridge.models import BoardScore
    from demo import bridge_sample as sample

    event, session, director = scored_bridge_event("Számok", seed=5)
    labels = sample.pair_labels(session)
    score = BoardScore.objects.filter(session=session).order_by("board", "pk").first()
    entry = score.ns.pair.entry
    for i, member in enumerate(entry.members.order_by("position")):
        member.person.user = make_user(f"szam{i}@example.hu")
        member.person.save()
    user = entry.members.order_by("position").first().person.user
    start = session.announced.starts_at
    Intention.objects.create(
        session=session.announced,
        entry=entry,
        board_number=score.board,
        source="director",
        recorded_by=director,
        recorded_at=start + datetime.timedelta(minutes=200),
    )
    filing.end_session(session.announced, director, at=start + datetime.timedelta(minutes=210))
    good = {
        "session": session.announced.pk,
        "entry": entry.pk,
        "board_number": score.board,
        "ns_pair": labels[score.ns_id],
        "ew_pair": labels[score.ew_id],
        "appellant_pair": labels[score.ns_id],
        "director": director.pk,
        "ruling": "Áll.",
        "request": "Módosítás.",
        "statement": "Hezitálás.",
    }
    api.force_authenticate(user)
    with freeze_time(start + datetime.timedelta(minutes=215)):
        for changes, field in (
            ({"board_number": 44}, "board_number"),
            ({"ns_pair": "33"}, "ns_pair"),
            ({"ew_pair": "55"}, "ew_pair"),
            ({"appellant_pair": labels[score.ew_id]}, "appellant_pair"),
        ):
            response = api.post(reverse("appeal-list"), {**good, **changes}, format="json")
            assert response.status_code == 400 and field in response.json(), field
        assert not Appeal.objects.exists()
        assert api.post(reverse("appeal-list"), good, format="json").status_code == 201
