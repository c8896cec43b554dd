"""Login lockout: per username with a cool-off, per address with a higher limit (password spraying),
429 with Retry-After (issue #15)."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

pytestmark = pytest.mark.django_db
PASSWORD = "Bridzs-Ulti-2026"


def attempt(client, username, password="rossz-jelszo", ip="203.0.113.5", **extra):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip, **extra
    )


def logged_in(client):
    return "_auth_user_id" in client.session


def test_a_guessed_account_is_locked_everywhere_but_only_for_the_cool_off(client, make_user, settings):
    make_user("aldozat@example.hu", password=PASSWORD)
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "aldozat@example.hu", ip=f"198.51.100.{n + 1}")
    # Locked for the username, from an address that never failed too; 429 with Retry-After.
    response = attempt(client, "aldozat@example.hu", PASSWORD, ip="192.0.2.77")
    assert response.status_code == 429 and not logged_in(client)
    cool_off = settings.AXES_COOLOFF_TIME * 3600
    assert 0 < int(response["Retry-After"]) <= cool_off
    # Failures while locked out are not recorded, so they do not prolong the lockout.
    recorded = list(AccessAttempt.objects.order_by("pk").values_list("attempt_time", flat=True))
    assert attempt(client, "aldozat@example.hu", ip="198.51.100.5").status_code == 429
    assert list(AccessAttempt.objects.order_by("pk").values_list("attempt_time", flat=True)) == recorded
    # After the cool-off the real user logs in.
    AccessAttempt.objects.update(
        attempt_time=datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=cool_off + 1)
    )
    response = attempt(client, "aldozat@example.hu", PASSWORD, ip="192.0.2.77")
    assert response.status_code == 302 and logged_in(client)


def test_one_password_tried_on_many_accounts_from_one_address_is_stopped(client, make_user, settings):
    settings.AXES_IP_FAILURE_LIMIT = 6
    make_user("valodi@example.hu", password=PASSWORD)
    for n in range(5):
        assert attempt(client, f"tag{n}@example.hu", "Tavasz2026!").status_code == 200
    # The sixth failure from the address, on a sixth account, locks the address.
    assert attempt(client, "tag5@example.hu", "Tavasz2026!").status_code == 429
    response = attempt(client, "tag99@example.hu", "Tavasz2026!")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    # The address is stopped, the accounts are not: the real user elsewhere still logs in.
    assert attempt(client, "valodi@example.hu", PASSWORD, ip="192.0.2.10").status_code == 302


def test_logging_in_to_ones_own_account_does_not_reset_the_address(client, make_user, settings):
    settings.AXES_IP_FAILURE_LIMIT = 6
    make_user("sajat@example.hu", password=PASSWORD)
    for n in range(5):
        attempt(client, f"tag{n}@example.hu")
    assert attempt(client, "sajat@example.hu", PASSWORD).status_code == 302
    client.logout()
    attempt(client, "tag5@example.hu")
    assert attempt(client, "tag6@example.hu").status_code == 429


def test_the_lockout_page_is_hungarian(client, make_user, settings):
    settings.AXES_FAILURE_LIMIT = 2
    for _ in range(2):
        attempt(client, "valaki@example.hu")
    response = attempt(client, "valaki@example.hu")
    assert response.status_code == 429
    assert response.headers["Content-Language"] == "hu"
