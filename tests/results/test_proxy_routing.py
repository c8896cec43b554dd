"""The reverse proxy's routing (deploy/nginx.conf, issue #18): the live pages' anonymous reads and the
fragments they poll go to the small `live` gunicorn pool, everything else (the tables' phones, the
directors, the API, any POST) to `web`. bench/live/routing.py reads the proxy's map from that file; the live
load test routes its requests with it, and these tests check it against the URLs the portal registers."""

import importlib.util
from pathlib import Path

import pytest
import yaml
from django.urls import get_resolver, reverse

from results import live

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_live_routing", ROOT / "bench" / "live" / "routing.py")
routing = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(routing)


def polled_names():
    get_resolver().url_patterns  # noqa: B018  the URL conf imported: its views register their names
    return sorted(live._POLLED)


def test_every_polled_fragment_is_answered_by_the_live_pool():
    names = polled_names()
    expected = {"bridge_live_standings", "bridge_live_boards", "ulti_live_standings", "ulti_live_round"}
    assert expected <= set(names)
    for name in names:
        path = reverse(name, args=[7])
        assert routing.pool("GET", path) == "live", path
        assert routing.pool("HEAD", path) == "live", path
        assert routing.pool("POST", path) == "web", path


def test_the_live_pages_are_answered_by_the_live_pool():
    polled_names()
    assert {"bridge_session", "bridge_frequencies", "ulti_standings"} <= live._PAGES
    for name in live._PAGES:
        path = reverse(name, args=[12])
        assert routing.pool("GET", path) == "live", path
        assert routing.pool("POST", path) == "web", path


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/accounts/login/",
        "/api/v1/",
        "/admin/",
        "/bridge/table/ABCD1234/",
        "/bridge/sessions/3/tables/",
        "/bridge/sessions/3/control-room/",
        "/bridge/sessions/3/pairs/4/",
        "/bridge/sessions/3/results.pdf",
        "/bridge/sessions/3/live/standings/extra/",
        "/bridge/sessions/x/live/standings/",
        "/ulti/events/3/standings.csv",
        "/ulti/events/3/recompute/",
        "/ulti/rounds/3/live/x/",
        "/ulti/rounds/3/",  # not page-cached: rendered by Django, in `web`
    ],
)
def test_everything_else_goes_to_the_web_pool(path):
    assert routing.pool("GET", path) == "web"


def test_the_pools_are_services_of_the_compose_file_behind_the_proxy():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    services = compose["services"]
    default, entries = routing.rules()
    pools = {default, *(pool for _pattern, pool in entries)}
    assert pools == {"web", "live"}
    conf = routing.CONF.read_text(encoding="utf-8")
    for pool in pools:
        assert f"upstream {pool} {{" in conf and f"server {pool}:8000;" in conf
        assert services[pool]["command"][:2] == ["gunicorn", "config.wsgi:application"]
        assert "0.0.0.0:8000" in services[pool]["command"]
        assert "ports" not in services[pool]  # reached through the proxy only
    proxy = services["proxy"]
    assert any(str(v).startswith("./deploy/nginx.conf:/etc/nginx/nginx.conf") for v in proxy["volumes"])
    assert set(proxy["depends_on"]) == pools
