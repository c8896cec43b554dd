"""The one refusal rule of federation.access, on a page and on the API."""

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import RequestFactory
from rest_framework.test import APIRequestFactory

from federation.access import LoginRequired, LoginRequiredMiddleware, api_exception_handler, object_or_deny
from federation.models import Federation

pytestmark = pytest.mark.django_db


def request_of(user):
    request = RequestFactory().get("/somewhere/?x=1")
    request.user = user
    return request


@pytest.fixture
def federation():
    return Federation.objects.create(code="tst", name="Test federation", short_name="TST")


@pytest.fixture
def superuser():
    return User.objects.create_superuser("root", "root@example.com", "pw")


@pytest.fixture
def player():
    return User.objects.create_user("player", "player@example.com", "pw")


PERM = "federation.change_federation"


def test_the_permitted_user_gets_the_object(federation, superuser):
    assert object_or_deny(request_of(superuser), Federation, PERM, pk=federation.pk) == federation


def test_a_missing_object_is_a_404_for_everybody(superuser):
    with pytest.raises(Http404):
        object_or_deny(request_of(superuser), Federation, PERM, pk=987654)


def test_visible_but_forbidden_is_403_for_a_logged_in_user_and_a_login_for_anonymous(federation, player):
    with pytest.raises(PermissionDenied) as refused:
        object_or_deny(request_of(player), Federation, PERM, pk=federation.pk)
    assert not isinstance(refused.value, LoginRequired)
    with pytest.raises(LoginRequired):
        object_or_deny(request_of(AnonymousUser()), Federation, PERM, pk=federation.pk)


@pytest.mark.parametrize("visible", [PERM, lambda user, obj: user.is_superuser])
def test_what_the_user_may_not_know_of_is_a_404_whoever_asks(federation, player, visible):
    for user in (player, AnonymousUser()):
        with pytest.raises(Http404):
            object_or_deny(request_of(user), Federation, PERM, visible=visible, pk=federation.pk)


def test_the_page_middleware_sends_login_required_to_the_login_page():
    request = request_of(AnonymousUser())
    response = LoginRequiredMiddleware(lambda r: None).process_exception(request, LoginRequired())
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert "next=/somewhere/%3Fx%3D1" in response["Location"]
    assert LoginRequiredMiddleware(lambda r: None).process_exception(request, PermissionDenied()) is None


def test_the_api_answers_login_required_as_not_authenticated():
    request = APIRequestFactory().get("/api/x/")
    response = api_exception_handler(LoginRequired(), {"request": request})
    assert response.status_code in (401, 403)
    assert response.data["detail"].code == "not_authenticated"
    assert api_exception_handler(PermissionDenied(), {"request": request}).data["detail"].code == (
        "permission_denied"
    )
