"""The one way a page or an API call loads the object it names and checks the user's permission on it.

One rule everywhere:
- an object the user may not know exists (a draft event, a case he is no party to) is a 404, so its
  existence does not leak;
- an object he may see but not act on is a login for an anonymous visitor (pages: a redirect to the login
  page; API: 401) and a 403 for a logged-in user (pages: the Hungarian 403 page).
"""

from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework import exceptions
from rest_framework.views import exception_handler as drf_exception_handler

Visible = str | Callable[[object, Model], bool] | None


class LoginRequired(PermissionDenied):
    """Raised for an anonymous visitor of something he could see once logged in.

    A PermissionDenied, so code that does not know it still answers 403; `LoginRequiredMiddleware` turns it
    into the login redirect on pages, `api_exception_handler` into a 401 on the API.
    """


def is_visible(user, obj, visible: Visible) -> bool:
    if visible is None:
        return True
    if callable(visible):
        return bool(visible(user, obj))
    return user.has_perm(visible, obj)


def deny(request, obj=None, *, visible: Visible = None):
    """Refuse `obj` by the rule above; never returns."""
    if obj is not None and not is_visible(request.user, obj, visible):
        raise Http404
    if not request.user.is_authenticated:
        raise LoginRequired
    raise PermissionDenied


def check(request, perm: str, obj, *, visible: Visible = None):
    """Nothing when the user has `perm` on `obj`, else the refusal the rule gives."""
    if not request.user.has_perm(perm, obj):
        deny(request, obj, visible=visible)


def object_or_deny(
    request, queryset: QuerySet | type[Model], perm: str, *, visible: Visible = None, **lookup
):
    """The object `lookup` finds in `queryset` (404 when there is none) if the user has `perm` on it.

    `visible` says who may know the object exists: a permission name, a predicate `(user, obj) -> bool`,
    or None for an object anybody may know of (a public event). Users it excludes get a 404.
    """
    obj = get_object_or_404(queryset, **lookup)
    check(request, perm, obj, visible=visible)
    return obj


class LoginRequiredMiddleware:
    """Turns `LoginRequired` raised by a page into a redirect to the login page (and back)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, LoginRequired) and not request.path.startswith("/api/"):
            return redirect_to_login(request.get_full_path())
        return None


def api_exception_handler(exc, context):
    """DRF's exception handler, with `LoginRequired` answered as DRF answers an anonymous caller
    (NotAuthenticated), so the API keeps the same rule as the pages."""
    if isinstance(exc, LoginRequired):
        exc = exceptions.NotAuthenticated()
    return drf_exception_handler(exc, context)
