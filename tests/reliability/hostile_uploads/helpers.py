"""What every hostile-upload test shares: the row-count snapshot, the checks on a response, random bytes."""

import datetime
import itertools
import random

import pytest
from django.apps import apps
from django.conf import settings
from django.test import Client
from django.utils import timezone, translation

from results.models import VersionedUpload

Source = VersionedUpload.Source
START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
SCRIPT = "<script>alert(1)</script>"
INJECTIONS = ["=cmd|' /C calc'!A0", "+SUM(1+1)", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)"]
HUGE = str(10**30)
RESULT_APPS = ("federation", "tournaments", "results", "bridge", "teams", "ulti", "rankings", "appeals")
_names = itertools.count(1)


def next_name() -> int:
    return next(_names)


def snapshot() -> dict[str, int]:
    """Row counts of every model of the project's apps (a partial write changes one of them)."""
    counts = {}
    for label in RESULT_APPS:
        for model in apps.get_app_config(label).get_models():
            counts[model._meta.label] = model._default_manager.count()
    return counts


def shows(text: str, expected: str) -> bool:
    """`expected` is one phrase or alternatives separated by '|'."""
    text = text.replace("&#x27;", "'").replace("&quot;", '"')
    return any(phrase in text for phrase in expected.split("|"))


def assert_safe(response):
    """No 500 and nothing executable echoed back."""
    assert response.status_code < 500
    body = response.content.decode("utf-8", "replace")
    assert "<script>alert" not in body.lower()
    return body


def errors_shown(body: str) -> str:
    """The alerts and form errors of a page, for a failing assertion's message."""
    import re

    return "\n".join(
        re.findall(r"<(?:div|li|ul)[^>]*(?:alert|error|invalid)[^>]*>.*?</(?:div|li|ul)>", body, re.S)
    )


def garbage(seed: int, size: int = 4096, *, avoid=b"") -> bytes:
    rng = random.Random(seed)
    data = bytes(rng.randrange(256) for _ in range(size))
    return bytes(b for b in data if b not in avoid)


DEFECT_BOARD = "\u00b2"  # '²': str.isdigit() says yes, int() says no


def refused_cleanly(response, before):
    assert response.status_code in (200, 400)
    assert snapshot() == before


def accepted_with_change(response, before):
    # Old Mac line ends (a bare CR) are line ends: such a file is read like any other.
    assert response.status_code < 500
    assert snapshot() != before


def as_bytes(value) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


# English pages: the refusals are matched by their English text.
@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def client():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client
