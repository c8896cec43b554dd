"""Registration: the account acts only after its e-mail is verified, and the answer never tells whether an
address already has an account (issue #15)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from federation.models import Notification

from .conftest import mailed_path

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "Bridzs-Ulti-2026"
VERIFY = r"/accounts/verify/[^/\s]+/"


def register(client, email="uj.jatekos@example.hu", password=PASSWORD, **extra):
    return client.post(
        reverse("register"),
        {
            "email": email,
            "first_name": "Anna",
            "last_name": "Kovács",
            "password1": password,
            "password2": password,
            "privacy_consent": "on",
        },
        **extra,
    )


def without_csrf(page):
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)


def log_in(client, email, password=PASSWORD):
    client.post(reverse("login"), {"username": email, "password": password})
    return "_auth_user_id" in client.session


def test_a_new_account_cannot_log_in_until_the_mailed_link_is_followed(client):
    response = register(client)
    assert response.status_code == 302 and response.url == reverse("register_done")
    assert "_auth_user_id" not in client.session
    user = User.objects.get(username="uj.jatekos@example.hu")
    assert not user.is_active
    assert not log_in(client, "uj.jatekos@example.hu")

    path = mailed_path("uj.jatekos@example.hu", VERIFY)
    assert client.get(path).status_code == 200
    # Opening the link is not enough (a mail scanner): the registration's password confirms it.
    client.post(path, {"password": "something-else-123"})
    user.refresh_from_db()
    assert not user.is_active
    response = client.post(path, {"password": PASSWORD})
    assert response.status_code == 302 and response.url == reverse("link_member")
    user.refresh_from_db()
    assert user.is_active and user.email_verification.verified_at is not None
    assert client.get(reverse("profile")).status_code == 200
    client.logout()
    assert log_in(client, "uj.jatekos@example.hu")
    # The link is used up.
    assert client.get(path).context["validlink"] is False


def test_registration_answers_the_same_for_a_known_address_and_mails_its_owner(client, make_user):
    owner = make_user("foglalt@example.hu", password="Eredeti-jelszo-99")
    owner.email = "foglalt@example.hu"
    owner.save()
    new = register(client, email="szabad@example.hu")
    known = register(client, email="Foglalt@example.hu")
    assert (known.status_code, known.url) == (new.status_code, new.url) == (302, reverse("register_done"))
    new_page, known_page = (without_csrf(client.get(r.url).content.decode()) for r in (new, known))
    assert new_page == known_page
    assert User.objects.filter(username__iexact="foglalt@example.hu").count() == 1
    owner.refresh_from_db()
    assert owner.check_password("Eredeti-jelszo-99") and owner.is_active
    notice = Notification.objects.get(recipient="foglalt@example.hu")
    assert "/accounts/verify/" not in notice.body and "/accounts/password-reset/" in notice.body


def test_a_weak_password_is_still_refused(client):
    response = register(client, password="12345678")
    assert response.status_code == 200 and not User.objects.exists()
    assert not Notification.objects.exists()


def test_registering_again_before_verification_voids_the_first_link(client):
    register(client, password="Elso-jelszo-2026")
    first = mailed_path("uj.jatekos@example.hu", VERIFY)
    register(client, password=PASSWORD)
    second = mailed_path("uj.jatekos@example.hu", VERIFY)
    assert User.objects.count() == 1
    assert client.get(first).context["validlink"] is False
    client.post(second, {"password": PASSWORD})
    assert User.objects.get().is_active


def test_resending_the_link_answers_the_same_for_any_address(client, make_user):
    register(client)
    Notification.objects.all().delete()
    make_user("regi@example.hu")
    answers = [
        client.post(reverse("resend_verification"), {"email": email})
        for email in ("uj.jatekos@example.hu", "regi@example.hu", "senki@example.hu")
    ]
    assert {(r.status_code, r.url) for r in answers} == {(302, reverse("register_done"))}
    assert list(Notification.objects.values_list("recipient", flat=True)) == ["uj.jatekos@example.hu"]
    client.post(mailed_path("uj.jatekos@example.hu", VERIFY), {"password": PASSWORD})
    assert User.objects.get(username="uj.jatekos@example.hu").is_active


def test_registration_is_throttled_per_address(client):
    for _ in range(3):
        assert register(client, email="bombazott@example.hu").status_code == 302
    response = register(client, email="bombazott@example.hu")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert Notification.objects.filter(recipient="bombazott@example.hu").count() == 3


def test_accounts_made_by_staff_or_the_demo_need_no_verification(client, make_user):
    make_user("jo@example.hu", password=PASSWORD)
    assert log_in(client, "jo@example.hu")
