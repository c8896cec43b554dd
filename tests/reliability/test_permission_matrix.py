"""The permission matrix: every URL pattern and every API operation, requested as every role.

Each page (discovered from the URL conf) and each API operation (discovered from the OpenAPI schema
drf-spectacular generates) must have an expectation in `permission_matrix.py`; a new URL without one fails
here. GET and POST are tried as each role of `conftest.ROLES` against the seeded demo world; every request
runs in a savepoint that is rolled back, so an allowed POST changes nothing for the next one.
"""

import os
import re

import pytest
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import resolve, reverse
from drf_spectacular.generators import SchemaGenerator

from .conftest import ROLES
from .matrix import dump, request, url_names
from .permission_matrix import ADMIN_OPEN, ADMIN_ROLES, API, KNOWN_ERRORS, PAGES, UNRESOLVED

pytestmark = pytest.mark.django_db
DUMPING = bool(os.environ.get("RELIABILITY_DUMP"))  # record what each role gets instead of asserting

ALL_NAMES = url_names()
API_NAMES = {n for n, route in ALL_NAMES.items() if route.startswith("api/v1/") and n != "api-root"}
PAGE_NAMES = sorted(n for n in ALL_NAMES if n not in API_NAMES)


def _operations():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    ops = []
    for path, item in schema["paths"].items():
        for method in item:
            if method in ("get", "post", "put", "patch", "delete"):
                ops.append(f"{method.upper()} {path}")
    return sorted(ops)


OPERATIONS = _operations()


@pytest.fixture(scope="module")
def clients(world, django_db_blocker):
    made = {}
    with django_db_blocker.unblock():
        for role in ROLES:
            client = Client(raise_request_exception=True)
            if world.users[role] is not None:
                client.force_login(world.users[role])
            made[role] = client
    return made


def _is_admin(name):
    return name.startswith("admin:") or name.startswith("<unnamed admin/")


def _admin_url(name, world):
    if name.startswith("<unnamed admin/(?P<url>"):
        return "/admin/no-such-page/"
    if name.startswith("<unnamed admin/"):
        route = name[len("<unnamed ") : -1]
        app, model = route.split("/")[1:3]
        obj = (
            ContentType.objects.get(app_label=app, model=model).model_class().objects.order_by("-pk").first()
        )
        return "/" + route.replace("<path:object_id>", str(obj.pk if obj else 1))
    pattern = re.match(r"admin:(\w+?)_(\w+)_(change|delete|history)$", name)
    if pattern:
        app, model = pattern.group(1), pattern.group(2)
        for ct in ContentType.objects.filter(app_label=app):
            if f"{app}_{ct.model}" == f"{app}_{model}":
                obj = ct.model_class().objects.order_by("-pk").first()
                return reverse(name, kwargs={"object_id": obj.pk if obj else 1})
    if name == "admin:app_list":
        return reverse(name, kwargs={"app_label": "federation"})
    if name == "admin:view_on_site":
        ct = ContentType.objects.get(app_label="federation", model="club")
        return reverse(name, kwargs={"content_type_id": ct.pk, "object_id": world.objects["club"].pk})
    return reverse(name)


def _check(kind, key, url, allowed_by_method, clients, roles=ROLES):
    problems = []
    for method, allowed in allowed_by_method.items():
        observed = {}
        for role in roles:
            outcome, detail = request(clients[role], method, url)
            observed[role] = [outcome, detail]
            want = "allow" if role in allowed else "deny"
            known = KNOWN_ERRORS.get((key, method, role))
            if outcome == "error" and known:
                continue
            if outcome != want:
                problems.append(f"{method} {url} as {role}: expected {want}, got {outcome} ({detail})")
        dump(kind, key, method, observed)
    return problems


def test_every_expectation_names_a_real_url():
    stale = (set(PAGES) | set(UNRESOLVED)) - set(PAGE_NAMES)
    stale |= set(API) - set(OPERATIONS)
    assert not stale, f"expectations for URLs that no longer exist: {sorted(stale)}"


def test_every_router_route_is_in_the_schema():
    """The router's URLs are checked through the schema; a route the schema does not show would escape."""
    reached = set()
    for op in OPERATIONS:
        path = re.sub(r"\{[^}]+\}", "1", op.split(" ", 1)[1])
        reached.add(resolve(path).url_name)
    assert API_NAMES - reached == set()


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_page(name, world, clients):
    if name in UNRESOLVED:
        pytest.skip(f"{name}: {UNRESOLVED[name]}")
    roles = ROLES
    if _is_admin(name):
        expected = ADMIN_OPEN.get(name, {"GET": set(), "POST": set()})
        url, roles = _admin_url(name, world), ADMIN_ROLES
    else:
        if name not in PAGES and not DUMPING:
            pytest.fail(f"URL {name!r} has no expectation: add it to tests/reliability/permission_matrix.py")
        expected = PAGES.get(name, {"GET": set(), "POST": set()})
        url = reverse(name, kwargs=world.kwargs.get(name))
    kind = "admin" if _is_admin(name) else "page"
    assert not _check(kind, name, url, expected, clients, roles) or DUMPING


@pytest.mark.parametrize("operation", OPERATIONS)
def test_api(operation, world, clients):
    if operation not in API and not DUMPING:
        pytest.fail(f"API operation {operation!r} has no expectation: add it to permission_matrix.API")
    method, path = operation.split(" ", 1)
    if isinstance(API.get(operation), str):
        pytest.skip(f"{operation}: {API[operation]}")
    url_name = resolve(re.sub(r"\{[^}]+\}", "1", path)).url_name
    if "{" in path:
        # The router's name is "<basename>-<action>"; basenames may contain dashes themselves.
        parts = url_name.split("-")
        basename = next(
            ("-".join(parts[:n]) for n in range(len(parts), 0, -1) if "-".join(parts[:n]) in world.api_pk),
            None,
        )
        pk = world.api_pk.get(basename)
        if pk is None:
            pytest.fail(f"{operation}: no object for {url_name}; add it to conftest or to API as unresolved")
        path = re.sub(r"\{[^}]+\}", str(pk), path)
    assert not _check("api", operation, path, {method: API.get(operation, set())}, clients) or DUMPING
