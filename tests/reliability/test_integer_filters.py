"""Issue #15: every integer filter validates its range. A number beyond SQLite's 64-bit integers gave a 500
on SQLite (the driver's OverflowError) and an empty 200 on PostgreSQL; now both answer 400 with a message.

Parametrised over every list operation and query parameter of the OpenAPI schema, so a new filter is
covered the day it is published; plus the pages that read numbers from the query string by hand.
"""

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer

HUGE, NEGATIVE, NOT_A_NUMBER = "99999999999999999999", "-1", "abc"
NUMERIC = {"integer", "number"}


def _list_parameters():
    schema = json.loads(
        OpenApiJsonRenderer().render(
            SchemaGenerator().get_schema(request=None, public=True), renderer_context={}
        )
    )
    out = []
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        if get is None or "{" in path:
            continue
        query = [p for p in get.get("parameters", []) if p["in"] == "query"]
        required = {p["name"]: "1" for p in query if p.get("required")}
        for parameter in query:
            others = {name: value for name, value in required.items() if name != parameter["name"]}
            out.append((path, parameter["name"], parameter.get("schema", {}).get("type"), others))
    return out


PARAMETERS = _list_parameters()


def test_the_schema_has_the_filters_of_the_issue():
    published = {(path, name) for path, name, _type, _others in PARAMETERS}
    assert ("/api/v1/team-matches/", "event") in published
    assert ("/api/v1/rankings/lists/", "region") in published
    assert ("/api/v1/rankings/lists/", "club") in published
    assert len(PARAMETERS) > 100


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("root", "root@example.hu", "jelszo-12345")


def _rows(response):
    data = response.json()
    return data.get("results", data) if isinstance(data, dict) else data


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "name", "kind", "others"), PARAMETERS, ids=[f"{p}?{n}" for p, n, _k, _o in PARAMETERS]
)
def test_a_filter_given_a_huge_negative_or_non_number_is_never_a_server_error(
    client, superuser, path, name, kind, others
):
    client.force_login(superuser)
    for value in (HUGE, NEGATIVE, NOT_A_NUMBER):
        response = client.get(path, {**others, name: value})
        where = f"{path}?{name}={value}"
        assert response.status_code != 500, (where, response.content[:300])
        if name == "page":  # DRF's documented answer to a page that is not there
            assert response.status_code == 404, where
        elif kind not in NUMERIC:
            assert response.status_code in (200, 400), where
        elif value == NEGATIVE:
            # Refused, or (a number within the column's range, e.g. ?year=-1) an empty list.
            assert response.status_code == 400 or (response.status_code == 200 and not _rows(response)), where
        else:
            assert response.status_code == 400, (where, response.content[:300])
            assert name in response.json(), (where, response.json())  # the message names the parameter


@pytest.mark.django_db
def test_the_issues_examples_answer_400_with_a_message(client):
    response = client.get("/api/v1/team-matches/", {"event": HUGE})
    assert response.status_code == 400
    assert "9223372036854775807" in " ".join(response.json()["event"])
    for name in ("region", "club"):
        response = client.get("/api/v1/rankings/lists/", {name: HUGE})
        assert response.status_code == 400 and name in response.json()


@pytest.fixture
def bridge_session(mbsz, make_user):
    import datetime

    from django.utils import timezone

    from bridge.services import setup
    from demo import bridge_sample as sample
    from federation.models import Role

    event = sample.event_with_pairs(
        mbsz, pairs=6, title="Számok", start=timezone.now() - datetime.timedelta(days=1)
    )
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    return session, director


@pytest.mark.django_db
@pytest.mark.parametrize("value", [HUGE, "-99999999999999999999", "²", NOT_A_NUMBER])
def test_pages_reading_numbers_answer_400_not_500(client, mbsz, bridge_session, value):
    session, director = bridge_session
    client.force_login(director)
    pages = [
        (reverse("rankings_masterpoints", args=[mbsz.code]), "club"),
        (reverse("rankings_masterpoints", args=[mbsz.code]), "region"),
        (reverse("rankings_masterpoints_csv", args=[mbsz.code]), "club"),
        (reverse("calendar"), "region"),
        (reverse("calendar"), "club"),
        (reverse("bridge_frequencies", args=[session.pk]), "board"),
    ]
    for url, name in pages:
        response = client.get(url, {name: value})
        assert response.status_code == 400, (url, name, response.status_code)
        assert name in response.content.decode(), (url, name)


def _int_routes():
    from django.urls import URLResolver, get_resolver

    def walk(resolver, prefix=""):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern)

    return sorted({route for route in walk(get_resolver()) if "<int:" in route and "(?P" not in route})


@pytest.mark.django_db
def test_a_huge_integer_in_any_page_address_is_never_a_server_error(client, superuser, mbsz):
    """Path converters take any digits: a year or an event id beyond 64 bits gave a 500 on SQLite
    (the calendar's year, the club fee summary's year, the rankings event page)."""
    import re

    client.raise_request_exception = False  # list every failure, not only the first
    client.force_login(superuser)
    routes = _int_routes()
    assert len(routes) > 50
    failures = []
    for route in routes:
        url = "/" + re.sub(r"<int:\w+>", HUGE, route)
        url = re.sub(r"<(?:slug:|str:)?(\w+)>", lambda m: "mbsz" if m.group(1) == "code" else "x", url)
        for method in (client.get, client.post):
            status = method(url).status_code
            if status >= 500:
                failures.append((method.__name__, url, status))
    assert failures == []
