"""The audit log (django-auditlog, federation/audit.py): entries, roles, decisions and result uploads leave a
row with the acting user and the changed fields; only superusers and federation staff read it."""

import datetime
import random

import pytest
from auditlog.context import set_actor
from auditlog.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from appeals.models import Appeal, Decision, Vote
from bridge.models import ResultVersion
from bridge.services import setup
from demo import bridge_sample as sample
from federation.models import Role
from tournaments.models import Entry, EntryMember, Event, Session

pytestmark = pytest.mark.django_db

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
CREATE, UPDATE, DELETE = LogEntry.Action.CREATE, LogEntry.Action.UPDATE, LogEntry.Action.DELETE


def rows(obj_or_model, pk=None):
    model = obj_or_model if isinstance(obj_or_model, type) else type(obj_or_model)
    pk = obj_or_model.pk if pk is None else pk
    return list(
        LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(model), object_pk=str(pk)
        ).order_by("pk")
    )


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("root@example.hu", "root@example.hu", "jelszo-12345")


@pytest.fixture
def event(mbsz, bridge_club):
    return Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Naplózott páros",
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=timezone.localdate() + datetime.timedelta(days=30),
        status=Event.Status.APPROVED,
        entry_fee=2000,
    )


def test_an_entry_created_changed_and_deleted_is_logged_with_its_actor(
    client, event, make_person, make_user, mbsz, bridge_club, superuser
):
    me = make_person(federation=mbsz, club=bridge_club, user=make_user("en@example.hu"))
    partner = make_person(federation=mbsz, club=bridge_club, user=make_user("partner@example.hu"))
    client.force_login(me.user)
    response = client.post(
        reverse("entry-list"),
        {"event": event.pk, "member_numbers": [partner.memberships.get().member_number]},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    entry = Entry.objects.get(pk=response.json()["id"])
    created = rows(entry)
    assert [r.action for r in created] == [CREATE]
    assert created[0].actor == me.user and created[0].changes_dict["event"][1] == str(event.pk)
    assert created[0].additional_data == {"federation": mbsz.pk}
    member_rows = [r for m in EntryMember.objects.filter(entry=entry) for r in rows(m)]
    assert len(member_rows) == 2 and {r.actor for r in member_rows} == {me.user}

    assert client.post(reverse("entry-withdraw", args=[entry.pk])).status_code == 200
    update = rows(entry)[-1]
    assert update.action == UPDATE and update.actor == me.user
    assert update.changes_dict["status"] == ["active", "withdrawn"]

    client.force_login(superuser)
    EntryMember.objects.filter(entry=entry).delete()
    response = client.post(reverse("admin:tournaments_entry_delete", args=[entry.pk]), {"post": "yes"})
    assert response.status_code == 302 and not Entry.objects.filter(pk=entry.pk).exists()
    deleted = rows(Entry, entry.pk)[-1]
    assert deleted.action == DELETE and deleted.actor == superuser
    assert deleted.additional_data == {"federation": mbsz.pk}


def test_a_role_granted_changed_and_revoked_in_the_admin_is_logged(client, superuser, make_user, mbsz, mausz):
    user = make_user("ujstaff@example.hu")
    client.force_login(superuser)
    response = client.post(
        reverse("admin:federation_role_add"),
        {"user": user.pk, "kind": Role.FEDERATION_STAFF, "federation": mbsz.pk, "granted_at_0": "2026-11-30",
         "granted_at_1": "10:00:00"},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    role = Role.objects.get(user=user)
    role.federation = mausz
    with set_actor(superuser):
        role.save()
    role_pk = role.pk
    response = client.post(reverse("admin:federation_role_delete", args=[role_pk]), {"post": "yes"})
    assert response.status_code == 302 and not Role.objects.filter(pk=role_pk).exists()

    logged = rows(Role, role_pk)
    assert [r.action for r in logged] == [CREATE, UPDATE, DELETE]
    assert {r.actor for r in logged} == {superuser}
    assert logged[0].changes_dict["kind"] == ["None", Role.FEDERATION_STAFF]
    assert logged[1].changes_dict["federation"] == [str(mbsz.pk), str(mausz.pk)]
    assert logged[2].additional_data == {"federation": mausz.pk}


def test_an_appeal_decision_and_its_votes_are_logged(event, make_person, make_user, mbsz, bridge_club):
    session = Session.objects.create(event=event, name="1. forduló", starts_at=START)
    entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE)
    filer, member = make_user("fellebbezo@example.hu"), make_user("bizottsag@example.hu")
    appeal = Appeal.objects.create(
        event=event, number=1, session=session, board_number=7, entry=entry, director_name="Versenybíró",
        ruling="3NT-1", request="3NT=", statement="A bíró tévedett.", filed_by=filer,
    )  # fmt: skip
    with set_actor(member):
        decision = Decision.objects.create(
            appeal=appeal, outcome=Decision.Outcome.CHANGED, text="Az eredmény 3NT=.", proposed_by=member
        )
        vote = Vote.objects.create(decision=decision, user=member, agrees=True)
        decision.text = "Az eredmény 3NT= mindkét oldalon."
        decision.save()
        vote.delete()

    logged = rows(decision)
    assert [r.action for r in logged] == [CREATE, UPDATE]
    assert all(r.actor == member for r in logged)
    assert logged[1].changes_dict["text"] == ["Az eredmény 3NT=.", "Az eredmény 3NT= mindkét oldalon."]
    assert logged[1].additional_data == {"federation": mbsz.pk}
    vote_rows = LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(Vote))
    assert [r.action for r in vote_rows.order_by("pk")] == [CREATE, DELETE]
    assert {r.actor for r in vote_rows} == {member}


def test_a_result_upload_is_logged_without_its_file_and_a_worker_write_has_no_actor(client, mbsz, make_user):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Feltöltés naplója", start=START)
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    text = sample.csv_text(session, sample.play(session, random.Random(3))).encode()
    client.force_login(director)
    response = client.post(
        reverse("bridge_upload", args=[session.pk]),
        {"format": "csv", "file": SimpleUploadedFile("fordulo.csv", text), "note": "első"},
    )
    assert response.status_code == 302
    version = ResultVersion.objects.get(session=session)
    (logged,) = rows(version)
    assert logged.action == CREATE and logged.actor == director
    assert logged.changes_dict["file_name"][1] == "fordulo.csv" and logged.changes_dict["note"][1] == "első"
    assert "raw" not in logged.changes_dict and "deals" not in logged.changes_dict
    assert logged.changes_dict["sha256"][1] == version.sha256 != ""
    assert logged.additional_data == {"federation": mbsz.pk}

    # A write outside any request (a Celery worker) is logged with no actor.
    entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE)
    assert rows(entry)[0].actor is None


def test_only_superusers_and_the_federations_staff_read_the_audit_log(
    client, event, superuser, make_user, mbsz, mausz, ulti_club
):
    mbsz_entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE, team_name="MBSZ-NAPLO")
    ulti_event = Event.objects.create(
        federation=mausz, club=ulti_club, title="Ulti napló", format="ulti_individual", event_class="rating",
        start_date=event.start_date, status=Event.Status.APPROVED,
    )  # fmt: skip
    Entry.objects.create(event=ulti_event, status=Entry.Status.ACTIVE, team_name="MAUSZ-NAPLO")
    url = reverse("audit_log")

    assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(make_user("jatekos@example.hu"))
    assert client.get(url).status_code == 403
    assert f'href="{url}"' not in client.get(reverse("home")).content.decode()  # no menu item either
    assert client.get(reverse("admin:auditlog_logentry_changelist")).status_code == 302  # not staff
    client.force_login(make_user("klub@example.hu", kind=Role.CLUB_ADMIN, club=ulti_club))
    assert client.get(url).status_code == 403

    client.force_login(make_user("staff@mbsz.hu", kind=Role.FEDERATION_STAFF, federation=mbsz))
    page = client.get(url)
    assert page.status_code == 200 and f'href="{url}"' in client.get(reverse("home")).content.decode()
    assert "MBSZ-NAPLO" in page.content.decode() and "MAUSZ-NAPLO" not in page.content.decode()
    # Shown for people: the field's Hungarian name and the action in words, no "None" for a missing value.
    html = page.content.decode()
    assert "<strong>Csapatnév</strong>: MBSZ-NAPLO" in html and "létrehozva" in html
    body = html.split("<tbody>")[1]
    assert "None" not in body, body[max(0, body.index("None") - 300) : body.index("None") + 100]

    client.force_login(superuser)
    page = client.get(url).content.decode()
    assert "MBSZ-NAPLO" in page and "MAUSZ-NAPLO" in page
    only_entries = client.get(url, {"model": "tournaments.entry"}).content.decode()
    assert f"#{mbsz_entry.pk}" in only_entries
    assert client.get(reverse("admin:auditlog_logentry_changelist")).status_code == 200


def test_an_api_client_with_a_token_is_the_actor(client, event, make_person, make_user, mbsz, bridge_club):
    from rest_framework.authtoken.models import Token

    me = make_person(federation=mbsz, club=bridge_club, user=make_user("token@example.hu"))
    partner = make_person(federation=mbsz, club=bridge_club, user=make_user("tarsa@example.hu"))
    token = Token.objects.create(user=me.user)
    response = client.post(
        reverse("entry-list"),
        {"event": event.pk, "member_numbers": [partner.memberships.get().member_number]},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token.key}",
    )
    assert response.status_code == 201, response.content
    (created,) = rows(Entry, response.json()["id"])
    assert created.action == CREATE and created.actor == me.user
