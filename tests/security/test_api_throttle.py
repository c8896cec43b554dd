"""The API throttle is on: DRF's anonymous and user rates answer 429 with Retry-After (issue #15: 130
anonymous requests in a burst all got 200). The suite's settings raise the rates; here they are set back."""

import pytest
from django.conf import settings as django_settings

pytestmark = pytest.mark.django_db


def rates(settings, anon, user):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": anon, "user": user},
    }


def test_the_throttle_classes_are_the_configured_ones():
    assert django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] == [
        "config.throttling.AnonRateThrottle",
        "config.throttling.UserRateThrottle",
    ]


def test_130_anonymous_requests_in_a_burst_meet_the_production_rate(client, settings):
    rates(settings, "120/min", "600/min")  # config/settings.py's defaults
    responses = [client.get("/api/v1/people/") for _ in range(130)]
    statuses = [r.status_code for r in responses]
    assert statuses[:120] == [200] * 120
    refused = responses[120:]
    assert [r.status_code for r in refused] == [429] * 10
    assert all(0 < int(r["Retry-After"]) <= 60 for r in refused)


def test_a_logged_in_user_has_his_own_rate(client, settings, make_user):
    rates(settings, "2/min", "4/min")
    client.force_login(make_user("api@example.hu"))
    statuses = [client.get("/api/v1/federations/").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    # The anonymous rate of the same address is counted apart.
    client.logout()
    assert client.get("/api/v1/federations/").status_code == 200
