import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from federation.models import Notification, Person

User = get_user_model()
PASSWORD = "Bridzs-Ulti-2026"


def register(client, email="uj.jatekos@example.hu", password=PASSWORD, password2=None):
    return client.post(
        reverse("register"),
        {
            "email": email,
            "first_name": "Anna",
            "last_name": "Kovács",
            "password1": password,
            "password2": password2 or password,
            "privacy_consent": "on",
        },
    )


def mailed_path(recipient, prefix):
    body = Notification.objects.filter(recipient=recipient).order_by("-pk").first().body
    return re.search(r"https?://testserver(" + prefix + r"[^/\s]+/)", body).group(1)


def register_and_verify(client, email="uj.jatekos@example.hu", password=PASSWORD):
    """Register, then follow the verification link mailed to the address (it logs the account in)."""
    register(client, email=email, password=password)
    return client.post(mailed_path(email, "/accounts/verify/"), {"password": password})


@pytest.mark.django_db
def test_registration_creates_an_account_and_logs_in(client):
    response = register(client)
    assert response.status_code == 302 and response.url == reverse("register_done")
    user = User.objects.get(username="uj.jatekos@example.hu")
    assert user.check_password(PASSWORD)
    # Inactive until the e-mail is verified; following the link logs in.
    assert not user.is_active and client.get(reverse("profile")).status_code == 302
    response = client.post(mailed_path(user.email, "/accounts/verify/"), {"password": PASSWORD})
    assert response.status_code == 302 and response.url == reverse("link_member")
    assert client.get(reverse("profile")).status_code == 200


@pytest.mark.django_db
def test_registration_refuses_weak_password_and_duplicate_email(client, make_user):
    response = register(client, password="12345678")
    assert response.status_code == 200 and not User.objects.exists()
    make_user("foglalt@example.hu")
    response = register(client, email="Foglalt@example.hu")
    # The same answer as for a new address (it must not tell that the address is known), but no new account.
    assert response.status_code == 302 and response.url == reverse("register_done")
    assert User.objects.filter(username__iexact="foglalt@example.hu").count() == 1


@pytest.mark.django_db
def test_linking_by_member_number_and_birth_date(client, mbsz, make_person):
    person = make_person(mbsz, birth_date=datetime.date(1961, 4, 9))
    number = person.memberships.get().member_number
    register_and_verify(client)
    response = client.post(
        reverse("link_member"), {"federation": mbsz.pk, "member_number": number, "birth_date": "1961-04-09"}
    )
    assert response.status_code == 302
    # Effective once the member confirms through the link mailed to the record's address.
    client.post(mailed_path(person.email, "/accounts/link/confirm/"), {"decision": "confirm"})
    person.refresh_from_db()
    assert person.user.username == "uj.jatekos@example.hu"


@pytest.mark.django_db
def test_linking_with_a_wrong_birth_date_is_refused(client, mbsz, make_person):
    person = make_person(mbsz, birth_date=datetime.date(1961, 4, 9))
    number = person.memberships.get().member_number
    register_and_verify(client)
    response = client.post(
        reverse("link_member"), {"federation": mbsz.pk, "member_number": number, "birth_date": "1961-04-10"}
    )
    assert response.status_code == 200
    assert "No member matches" in response.content.decode() or "Nincs" in response.content.decode()
    person.refresh_from_db()
    assert person.user is None


@pytest.mark.django_db
def test_a_member_record_linked_to_someone_else_cannot_be_taken(client, mbsz, make_person, make_user):
    owner = make_user("tulaj@example.hu")
    person = make_person(mbsz, birth_date=datetime.date(1961, 4, 9), user=owner)
    register_and_verify(client)
    client.post(
        reverse("link_member"),
        {
            "federation": mbsz.pk,
            "member_number": person.memberships.get().member_number,
            "birth_date": "1961-04-09",
        },
    )
    person.refresh_from_db()
    assert person.user == owner


@pytest.mark.django_db
def test_member_request_is_recorded(client, mbsz):
    register_and_verify(client)
    response = client.post(
        reverse("member_request"),
        {
            "federation": mbsz.pk,
            "last_name": "Új",
            "first_name": "Tag",
            "birth_date": "1990-01-02",
            "gender": "F",
            "note": "",
        },
    )
    assert response.status_code == 302
    assert User.objects.get().member_requests.get().status == "pending"


@pytest.mark.django_db
def test_login_is_throttled_after_repeated_failures(client, make_user, settings):
    settings.AXES_FAILURE_LIMIT = 3
    make_user("zar@example.hu", password=PASSWORD)
    for _ in range(3):
        client.post(reverse("login"), {"username": "zar@example.hu", "password": "rossz"})
    # Even the right password is refused while locked out.
    response = client.post(reverse("login"), {"username": "zar@example.hu", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_login_works_with_the_right_password(client, make_user):
    make_user("jo@example.hu", password=PASSWORD)
    response = client.post(reverse("login"), {"username": "jo@example.hu", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


@pytest.mark.django_db
def test_password_reset_sends_an_email(client, make_user):
    make_user("feledekeny@example.hu")
    User.objects.filter(username="feledekeny@example.hu").update(email="feledekeny@example.hu")
    response = client.post(reverse("password_reset"), {"email": "feledekeny@example.hu"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and "/accounts/reset/" in mail.outbox[0].body


@pytest.mark.django_db
def test_private_person_data_only_for_self_and_staff(client, mbsz, make_person, make_user):
    from federation.models import Role

    person = make_person(mbsz, birth_date=datetime.date(1955, 2, 3), phone="+36 30 111 2222")
    url = reverse("person_detail", args=[person.pk])
    assert "111 2222" not in client.get(url).content.decode()
    client.force_login(make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz))
    assert "111 2222" in client.get(url).content.decode()


def test_person_str_is_family_name_first():
    assert str(Person(first_name="Anna", last_name="Kovács")) == "Kovács Anna"
