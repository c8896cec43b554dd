"""X-Forwarded-For is believed only from the trusted proxies of TRUSTED_PROXY_COUNT (default 0: never)."""

import pytest
from django.test import RequestFactory
from django.urls import reverse

from federation.client_ip import client_ip


def request_from(remote, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_the_header_is_ignored_by_default(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request_from("203.0.113.5", "1.2.3.4")) == "203.0.113.5"


def test_behind_trusted_proxies_the_client_is_the_entry_they_wrote(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # The client wrote "1.2.3.4" itself; our proxy appended the address it saw.
    assert client_ip(request_from("10.0.0.2", "1.2.3.4, 198.51.100.7")) == "198.51.100.7"
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(request_from("10.0.0.2", "1.2.3.4, 198.51.100.7, 10.0.0.1")) == "198.51.100.7"
    # Fewer entries than proxies, or garbage: the connecting address.
    assert client_ip(request_from("10.0.0.2", "198.51.100.7")) == "10.0.0.2"
    assert client_ip(request_from("10.0.0.2", "x, <script>")) == "10.0.0.2"


@pytest.mark.django_db
def test_a_client_cannot_escape_the_api_throttle_with_forged_headers(client, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "5/min", "user": "5/min"},
    }
    statuses = [
        client.get("/api/v1/federations/", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").status_code for n in range(8)
    ]
    assert statuses[:5] == [200] * 5 and statuses[5:] == [429] * 3


@pytest.mark.django_db
def test_a_client_cannot_escape_the_login_lockout_with_forged_headers(client, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    settings.AXES_IP_FAILURE_LIMIT = 3
    for n in range(3):
        client.post(
            reverse("login"),
            {"username": f"tag{n}@example.hu", "password": "x"},
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
    response = client.post(
        reverse("login"), {"username": "tag9@example.hu", "password": "x"}, HTTP_X_FORWARDED_FOR="192.0.2.99"
    )
    assert response.status_code == 429


@pytest.mark.django_db
def test_behind_a_trusted_proxy_clients_are_throttled_apart(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "3/min"},
    }
    first = [
        client.get("/api/v1/federations/", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code for _ in range(4)
    ]
    other = client.get("/api/v1/federations/", HTTP_X_FORWARDED_FOR="198.51.100.2").status_code
    assert first == [200, 200, 200, 429] and other == 200


@pytest.mark.django_db
def test_a_request_without_a_peer_address_gets_one_the_lockout_can_store():
    """A Unix-socket or test request has no usable REMOTE_ADDR; the lockout stores the address in an IP column,
    which PostgreSQL refuses for anything that is not an address (a failed login there was a 500)."""
    import ipaddress

    from django.test import RequestFactory

    from federation.client_ip import client_ip

    for remote in ("", "unix:/run/gunicorn.sock", "not-an-address"):
        request = RequestFactory().get("/", REMOTE_ADDR=remote)
        ipaddress.ip_address(client_ip(request))
