"""Mail preferences: the signed link at the end of every mail, the choice page, and notify honouring it."""

import pytest
from django.core import signing
from django.urls import reverse

from federation.models import MailPreference, Notification
from federation.services import mail_preferences
from federation.services.notifications import notify

pytestmark = pytest.mark.django_db


def _link_path(body):
    url = body.rsplit(" ", 1)[-1].strip()
    assert "/mail-preferences/" in url
    return url[url.index("/mail-preferences/") :]


def test_every_mail_carries_the_signed_link_of_its_own_address():
    a, b = notify(["a@example.hu", "b@example.hu"], "Tárgy", "Szöveg")
    assert a.body.startswith("Szöveg")
    assert mail_preferences.address_from(_link_path(a.body).split("/")[2]) == "a@example.hu"
    assert mail_preferences.address_from(_link_path(b.body).split("/")[2]) == "b@example.hu"


def test_unsubscribed_category_is_not_sent_and_essential_mail_still_is(client):
    mail = notify(["a@example.hu"], "x", "y", category=MailPreference.ENTRIES)[0]
    response = client.post(_link_path(mail.body), {"receive": [MailPreference.RESULTS]})
    assert response.status_code == 302
    assert notify(["a@example.hu"], "x", "y", category=MailPreference.ENTRIES) == []
    assert len(notify(["a@example.hu"], "x", "y", category=MailPreference.RESULTS)) == 1
    assert len(notify(["a@example.hu"], "x", "y")) == 1  # essential: always
    assert len(notify(["c@example.hu"], "x", "y", category=MailPreference.ENTRIES)) == 1  # another address


def test_link_page_needs_no_login_and_shows_the_address(client):
    token = mail_preferences.token_for("Nagy@Example.hu")
    page = client.get(reverse("mail_preferences_link", args=[token]))
    assert page.status_code == 200
    assert "nagy@example.hu" in page.content.decode()


def test_tampered_or_foreign_token_is_404(client):
    token = mail_preferences.token_for("a@example.hu")
    assert client.get(reverse("mail_preferences_link", args=[token[:-2] + "xx"])).status_code == 404
    other = signing.dumps("a@example.hu", salt="another-salt")
    assert client.post(reverse("mail_preferences_link", args=[other]), {"receive": []}).status_code == 404
    assert not MailPreference.objects.exists()


def test_logged_in_person_changes_his_own_address_only(client, member, other_member):
    client.force_login(member.user)
    response = client.post(reverse("mail_preferences"), {"receive": []})
    assert response.status_code == 302
    assert set(MailPreference.objects.get(address="tag@example.hu").opted_out) == {
        code for code, _label in MailPreference.OPTIONAL
    }
    assert not MailPreference.objects.filter(address="masik@example.hu").exists()


def test_preferences_page_sends_anonymous_visitor_to_login(client):
    response = client.get(reverse("mail_preferences"))
    assert response.status_code == 302 and reverse("login") in response.url


def test_entry_mail_is_in_the_entries_category(member, other_member, make_entry):
    from tournaments.services import mail

    mail_preferences.save("tag@example.hu", set())
    entry = make_entry([member, other_member])
    mail._send(entry.members.select_related("person"), "x", "y", event=entry.event)
    assert not Notification.objects.filter(recipient="tag@example.hu").exists()
    assert Notification.objects.filter(recipient="masik@example.hu").count() == 1
