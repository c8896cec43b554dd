"""E-mail links and addresses (issue #14).

Every link in a mail is absolute, built from settings.PORTAL_URL (a mail has no request to take the host
from); mail goes to the address the person logs in with unless they chose their member record's address on
the profile page.
"""

import re

import pytest
from django.core import mail
from django.urls import reverse

from federation.models import Notification, Person
from federation.services.notifications import absolute_url, address_of
from tournaments.services import entries as service
from tournaments.services import workflow

pytestmark = pytest.mark.django_db

PORTAL = "https://portal.example.org"
# A path at the start of a line or after a space: a relative link (an absolute one is preceded by the host).
RELATIVE = re.compile(r"(?:^|\s)/[\w\-]+/")


@pytest.fixture(autouse=True)
def portal_url(settings):
    settings.PORTAL_URL = PORTAL


def bodies():
    return list(Notification.objects.values_list("body", flat=True))


def assert_absolute_links(body):
    assert PORTAL + "/" in body
    assert not RELATIVE.search(body), body


def test_an_entry_mail_links_to_the_event_with_an_absolute_https_url(pairs_event, make_player):
    me, partner = make_player(), make_player()
    service.create_entry(pairs_event.pk, me.user, [me, partner])
    received = Notification.objects.get(recipient=me.user.email)
    assert f"{PORTAL}/events/{pairs_event.pk}/" in received.body
    assert_absolute_links(received.body)
    ask = Notification.objects.get(recipient=partner.user.email)  # the partner is asked to confirm
    assert f"{PORTAL}{reverse('my_entries')}" in ask.body
    assert_absolute_links(ask.body)


def test_every_entry_and_calendar_mail_has_only_absolute_links(
    make_event, make_player, club_admin, staff_mbsz
):
    event = make_event(format="individual", capacity=1, created_by=club_admin)
    first, second = make_player(), make_player()
    e1 = service.create_entry(event.pk, first.user, [first])
    service.create_entry(event.pk, second.user, [second])
    service.withdraw(e1.pk, first.user)  # withdrawn + promoted
    workflow.cancel(event.pk, club_admin, "Kevés nevező.")
    assert len(bodies()) >= 4
    for body in bodies():
        assert_absolute_links(body)


def test_the_organiser_mail_of_a_workflow_step_links_absolutely(make_event, staff_mbsz, club_admin):
    from tests.tournaments.test_workflow import complete

    event = complete(make_event(status="submitted", created_by=club_admin))
    workflow.return_event(event.pk, staff_mbsz, "Hiányzik a díjazás.")
    (n,) = Notification.objects.filter(recipient=club_admin.email)
    assert f"{PORTAL}/events/{event.pk}/" in n.body
    assert_absolute_links(n.body)


def test_mail_goes_to_the_login_address_not_the_member_record_by_default(pairs_event, make_player):
    me, partner = make_player(), make_player()
    assert me.email != me.user.email  # the member record says one address, the login another
    service.create_entry(pairs_event.pk, me.user, [me, partner])
    recipients = set(Notification.objects.values_list("recipient", flat=True))
    assert recipients == {me.user.email, partner.user.email}
    assert me.email not in recipients and partner.email not in recipients


def test_the_profile_choice_switches_the_address(client, pairs_event, make_player):
    me, partner = make_player(), make_player()
    client.force_login(me.user)
    page = client.get(reverse("profile")).content.decode()
    assert me.user.email in page and me.email in page  # both offered

    response = client.post(reverse("profile"), {"mail-mail_to": Person.MAIL_TO_MEMBER})
    assert response.status_code == 302
    me.refresh_from_db()
    assert me.mail_to == Person.MAIL_TO_MEMBER and address_of(me) == me.email
    service.create_entry(pairs_event.pk, me.user, [me, partner])
    assert Notification.objects.filter(recipient=me.email).exists()
    assert not Notification.objects.filter(recipient=me.user.email).exists()

    client.post(reverse("profile"), {"mail-mail_to": Person.MAIL_TO_ACCOUNT})
    me.refresh_from_db()
    assert address_of(me) == me.user.email == address_of(me.user)


def test_choosing_an_empty_member_address_is_refused_and_changes_nothing(client, make_player):
    me = make_player()
    Person.objects.filter(pk=me.pk).update(email="")
    client.force_login(me.user)
    response = client.post(reverse("profile"), {"mail-mail_to": Person.MAIL_TO_MEMBER})
    assert response.status_code == 200
    assert "Your member record has no e-mail address." in response.content.decode() or (
        "nincs e-mail" in response.content.decode()
    )
    me.refresh_from_db()
    assert me.mail_to == Person.MAIL_TO_ACCOUNT


def test_a_person_without_a_login_gets_mail_at_the_member_record(make_person, mbsz):
    person = make_person(mbsz)
    assert address_of(person) == person.email


def test_the_password_reset_link_is_built_from_the_portal_url(client, make_user):
    make_user("feledekeny@example.hu")
    client.post(reverse("password_reset"), {"email": "feledekeny@example.hu"})
    (message,) = mail.outbox
    assert f"{PORTAL}/accounts/reset/" in message.body and "://testserver" not in message.body


def test_absolute_url_joins_without_a_double_slash(settings):
    settings.PORTAL_URL = PORTAL + "/"
    assert absolute_url("event_detail", 5) == f"{PORTAL}/events/5/"
