"""At a phone's 390 px no public page scrolls sideways: wide tables scroll inside their own frame
(.table-responsive) and charts scale to the width. Headless Chromium visits one page of every public type
on the seeded demo and checks `document.documentElement.scrollWidth <= window.innerWidth`.

Runs with BROWSER=1 (Chromium and chromedriver installed, `selenium` in the virtualenv); skipped elsewhere.
"""

import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

pytestmark = [pytest.mark.e2e]

WIDTH = 390

# What sticks out, for the failure message: the outermost elements whose right edge passes the viewport
# and that are not inside a frame that scrolls on its own.
WIDE_ELEMENTS = """
const out = [];
for (const el of document.querySelectorAll("body *")) {
  const box = el.getBoundingClientRect();
  if (box.right <= window.innerWidth + 0.5 || box.width === 0) continue;
  let framed = false;
  for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (style.overflowX === "auto" || style.overflowX === "scroll" || style.overflowX === "hidden") { framed = true; break; }
  }
  if (!framed) out.push(el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined ? "." + String(el.className).split(" ").join(".") : "") + " " + Math.round(box.right) + "px");
}
return out.slice(0, 8);
"""


@pytest.fixture
def narrow(browser):
    """The shared browser (tests/e2e/conftest.py) as a 390 px wide phone."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": 844, "deviceScaleFactor": 1, "mobile": True},
    )
    return browser


@pytest.fixture
def public_pages(transactional_db):
    """One URL of every public page type on the demo data, and the ones only the event's staff open."""
    from bridge.models import PairSession, SessionStanding
    from federation.models import Club, Person
    from teams.models import Match
    from teams.models import Round as TeamRound
    from ulti.models import Round as UltiRound
    from ulti.models import UltiEvent

    call_command("seed_demo", stdout=io.StringIO())
    session = PairSession.objects.exclude(published_at=None).order_by("pk").first()
    standing = SessionStanding.objects.filter(session=session).order_by("pk").first()
    team_round = TeamRound.objects.order_by("pk").first()
    team_event = team_round.event_id
    match = Match.objects.filter(round__event_id=team_event).exclude(away=None).order_by("pk").first()
    ulti_event = UltiEvent.objects.order_by("event_id").first().event_id
    ulti_round = UltiRound.objects.order_by("pk").first()
    person = Person.objects.filter(pk=standing.pair.pair.player1_id).first() or Person.objects.first()
    public = {
        "calendar": reverse("calendar"),
        "event": reverse("event_detail", args=[session.event_id]),
        "bridge event": reverse("bridge_event", args=[session.event_id]),
        "bridge session standings": reverse("bridge_session", args=[session.pk]),
        "frequency sheet": reverse("bridge_frequencies", args=[session.pk]),
        "score card": reverse("bridge_score_card", args=[session.pk, standing.pair_id]),
        "hand records": reverse("bridge_hand_records", args=[session.pk]),
        "team standings": reverse("teams_standings", args=[team_event]),
        "team round": reverse("teams_round", args=[team_event, team_round.number]),
        "team match": reverse("teams_match", args=[match.pk]),
        "team bracket": reverse("teams_bracket", args=[team_event]),
        "ulti standings": reverse("ulti_standings", args=[ulti_event]),
        "ulti round": reverse("ulti_round", args=[ulti_round.pk]),
        "rankings list": reverse("rankings"),
        "person": reverse("person_detail", args=[person.pk]),
        "club": reverse("club_detail", args=[Club.objects.order_by("pk").first().pk]),
    }
    staff = {
        "traveller": reverse("bridge_traveller", args=[session.pk, 1]),
        "bridge versions": reverse("bridge_versions", args=[session.pk]),
        "ulti versions": reverse("ulti_versions", args=[ulti_event]),
    }
    return public, staff


def _log_in(driver, live_server):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_superuser("narrow@example.hu", "narrow@example.hu", "jelszo-12345")
    client = Client()
    client.force_login(user)
    driver.get(live_server.url + reverse("calendar"))
    driver.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    )


def _too_wide(driver, live_server, pages):
    wide = {}
    for name, url in pages.items():
        driver.get(live_server.url + url)
        assert "<h1" in driver.page_source or "<h2" in driver.page_source, f"{name}: {url} shows no page"
        scroll, inner = driver.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth];"
        )
        assert inner == WIDTH, f"the viewport is {inner} px, not {WIDTH}"
        if scroll > inner:
            wide[name] = (url, scroll, driver.execute_script(WIDE_ELEMENTS))
    return wide


def test_no_public_page_scrolls_sideways_at_390_px(narrow, live_server, public_pages):
    public, staff = public_pages
    assert _too_wide(narrow, live_server, public) == {}
    _log_in(narrow, live_server)
    assert _too_wide(narrow, live_server, staff) == {}


def test_a_wide_table_scrolls_inside_its_frame(narrow, live_server, public_pages):
    """The frequency sheet's table is wider than the phone; its frame scrolls, the page does not."""
    public, _ = public_pages
    narrow.get(live_server.url + public["frequency sheet"])
    frame_scroll, frame_width, page_scroll = narrow.execute_script(
        "const f = document.querySelector('.table-responsive > .table-results').parentElement;"
        "return [f.scrollWidth, f.clientWidth, document.documentElement.scrollWidth];"
    )
    assert frame_scroll > frame_width  # the table really is wider than the screen ...
    assert page_scroll <= WIDTH  # ... and only its frame scrolls
