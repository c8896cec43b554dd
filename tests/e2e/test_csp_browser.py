"""The Content-Security-Policy in headless Chromium: the home page, an event page, a bridge session and the
Swagger UI at /api/docs/ run without a single CSP violation, while an inline script is really refused.

Runs with BROWSER=1 (Chromium and chromedriver installed, `selenium` in the virtualenv); skipped elsewhere.
"""

import datetime
import json
import random
import time

import pytest
from django.urls import reverse
from django.utils import timezone

from .test_appeal_browser import Walk

pytestmark = [pytest.mark.e2e]

# Installed before any page script runs (CDP scripts are not subject to the page's CSP): collects every
# `securitypolicyviolation` event the page raises.
RECORDER = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


@pytest.fixture
def browser(browser):
    """The shared browser (tests/e2e/conftest.py), recording CSP violations from the first script on."""
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    return browser


def violations(driver):
    """CSP violations of the current page: the recorded events plus the console's CSP messages."""
    recorded = driver.execute_script("return window.__csp || [];")
    console = [
        entry["message"]
        for entry in driver.get_log("browser")
        if "Content Security Policy" in entry["message"] or "Refused to" in entry["message"]
    ]
    return recorded + console


@pytest.fixture
def pages(transactional_db, mbsz, make_user):
    from bridge.services import setup, upload_readers, uploads
    from demo import bridge_sample as sample
    from federation.models import Role
    from results.models import VersionedUpload

    start = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
    event = sample.event_with_pairs(mbsz, pairs=8, title="CSP páros", start=start)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    director = make_user("td-csp@example.hu", kind=Role.DIRECTOR, event=event)
    rows = sample.play(session, random.Random(5))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    setup.publish(session, director)
    return {
        "home": reverse("home"),
        "event": reverse("event_detail", args=[event.pk]),
        "session": reverse("bridge_session", args=[session.pk]),
        "guide cards": reverse("bridge_guide_cards", args=[session.pk]),
        "director": director,
    }


def test_pages_and_the_api_docs_run_without_csp_violations(browser, live_server, pages):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    found = {}
    for name in ("home", "event", "session"):
        browser.get(live_server.url + pages[name])
        assert browser.find_element(By.CSS_SELECTOR, "nav.navbar")
        found[name] = violations(browser)

    # Bootstrap's script runs: the collapsed menu opens on a narrow window.
    browser.set_window_size(500, 900)
    browser.get(live_server.url + pages["home"])
    browser.find_element(By.CSS_SELECTOR, ".navbar-toggler").click()
    WebDriverWait(browser, 5).until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#mainnav .nav-link")))
    found["menu"] = violations(browser)
    browser.set_window_size(1280, 1600)

    # A director's print page: the Print button is bound by static/js/portal.js, not an onclick attribute.
    Walk(browser, live_server).login(pages["director"])
    browser.get(live_server.url + pages["guide cards"])
    browser.execute_script("window.print = function () { window.__printed = true; };")
    browser.find_element(By.CSS_SELECTOR, "[data-print]").click()
    assert browser.execute_script("return window.__printed === true;")
    found["guide cards"] = violations(browser)

    browser.get(live_server.url + reverse("api_docs"))
    WebDriverWait(browser, 20).until(
        ec.presence_of_element_located((By.CSS_SELECTOR, "#swagger-ui .opblock-tag, #swagger-ui .opblock"))
    )
    assert "Versenyportál API" in browser.find_element(By.CSS_SELECTOR, "#swagger-ui .info").text
    found["api docs"] = violations(browser)

    assert found == {name: [] for name in found}, json.dumps(found, indent=1, ensure_ascii=False)

    # The policy is really enforced: an inline script added to the page is refused and reported.
    browser.get(live_server.url + pages["home"])
    browser.execute_script(
        "var s = document.createElement('script'); s.textContent = 'window.__ran = true;';"
        "document.head.appendChild(s);"
    )
    assert browser.execute_script("return window.__ran === undefined;")
    assert any("script-src" in v for v in violations(browser))


def test_the_withdraw_button_asks_for_confirmation_through_the_static_script(
    browser, live_server, transactional_db, mbsz, make_person, make_user
):
    """data-confirm is handled by static/js/portal.js (no inline handler under the CSP): a refusal keeps
    the entry, an acceptance withdraws it at once (the script adds confirmed=1)."""
    from selenium.webdriver.common.by import By

    from tournaments.models import Entry, EntryMember, Event

    event = Event.objects.create(
        federation=mbsz,
        title="Megerősítős verseny",
        format=Event.Format.INDIVIDUAL,
        event_class=Event.EventClass.CLUB,
        start_date=timezone.localdate() + datetime.timedelta(days=30),
        status=Event.Status.APPROVED,
    )
    user = make_user("visszalep@example.hu")
    person = make_person(mbsz, user=user)
    entry = Entry.objects.create(event=event)
    EntryMember.objects.create(entry=entry, person=person, confirmed_at=timezone.now())

    Walk(browser, live_server).login(user)
    browser.get(live_server.url + reverse("my_entries"))
    selector = f"form[action='{reverse('entry_withdraw', args=[entry.pk])}'][data-confirm] button"

    browser.execute_script("window.confirm = function () { window.__asked = true; return false; };")
    browser.find_element(By.CSS_SELECTOR, selector).click()
    assert browser.execute_script("return window.__asked === true;")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE

    browser.execute_script("window.confirm = function () { return true; };")
    browser.find_element(By.CSS_SELECTOR, selector).click()
    for _ in range(50):
        entry.refresh_from_db()
        if entry.status == Entry.Status.WITHDRAWN:
            break
        time.sleep(0.1)
    assert entry.status == Entry.Status.WITHDRAWN
    assert violations(browser) == []
