"""At a phone's 390 px no public page scrolls sideways: wide tables scroll inside their own frame
(.table-responsive) and charts scale to the width. Headless Chromium visits one page of every public type
on the seeded demo and checks `document.documentElement.scrollWidth <= window.innerWidth`.

Runs with BROWSER=1 (Chromium and chromedriver installed, `selenium` in the virtualenv); skipped elsewhere.
"""

import pytest
from django.conf import settings
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


# Each standings table marks the figure it ranks by (%, VP, points) with `.result-figure`.
FIGURES_OFF_SCREEN = """
return [...document.querySelectorAll("th.result-figure, td.result-figure")]
  .filter((cell) => cell.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map((cell) => cell.closest("table").closest("[id]")?.id + " " + cell.textContent.trim()).slice(0, 5);
"""


def test_the_figure_a_standings_table_ranks_by_is_on_screen_at_390_px(narrow, live_server, public_pages):
    """A player on a phone sees his place and his result without scrolling a table sideways: the columns
    that only explain the result (boards, matchpoints, IMPs won and lost, masterpoint rights, a score card's
    direction, opponents, lead and tricks) give way."""
    public, _ = public_pages
    pages = [
        "bridge live session",  # the live standings fragment, as the demo's session being played shows it
        "bridge session standings",
        "bridge event",
        "score card",
        "individual standings",
        "team standings",
        "team round",
        "ulti standings",
        "sport ulti standings",
        "ulti table (phone)",  # the score sheet: each player's forints beside the bid
    ]
    for name in pages:
        narrow.get(live_server.url + public[name])
        marked = narrow.execute_script("return document.querySelectorAll('th.result-figure').length")
        assert marked, f"{name}: no standings table marks its figure"
        assert narrow.execute_script(FIGURES_OFF_SCREEN) == [], name
