"""A lost database connection answers 503 + Retry-After, JSON on the API and a plain page elsewhere; other
errors are left to Django. The real PostgreSQL restart is in tests/e2e/test_faults.py."""

import json

import pytest
from django.db import InterfaceError, OperationalError
from django.test import RequestFactory
from django.utils import translation

from federation.middleware import DatabaseUnavailableMiddleware

middleware = DatabaseUnavailableMiddleware(lambda request: None)


@pytest.mark.parametrize("error", [OperationalError("terminating connection"), InterfaceError("closed")])
def test_the_api_gets_a_json_503_with_retry_after(error):
    response = middleware.process_exception(RequestFactory().post("/api/v1/bridge/sessions/1/upload/"), error)
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = json.loads(response.content)
    assert "semmi sem lett elmentve" in body["detail"]  # Hungarian first, the API too
    assert "terminating" not in body["detail"]


def test_a_page_gets_a_plain_hungarian_503_without_details():
    with translation.override("hu"):
        response = middleware.process_exception(
            RequestFactory().get("/versenyek/"), OperationalError("server closed the connection")
        )
    assert response.status_code == 503
    html = response.content.decode()
    assert html.startswith("<!doctype html>") and 'lang="hu"' in html
    assert "A szolgáltatás átmenetileg nem érhető el" in html
    assert "server closed" not in html


def test_other_errors_are_not_swallowed():
    assert middleware.process_exception(RequestFactory().get("/"), ValueError("bug")) is None
