"""The results index and the home page in headless Chromium: the navbar's "Eredmények" leads to one index of
every format, its format filter narrows it, each row and the home page's "Legutóbbi eredmények" open the
event's own results page.

Runs with BROWSER=1 (Chromium and chromedriver installed, `selenium` in the virtualenv); skipped elsewhere.
"""

import datetime
import random

import pytest
from django.urls import reverse
from django.utils import timezone

pytestmark = [pytest.mark.e2e]


@pytest.fixture
def events(transactional_db, mbsz, make_user):
    from bridge.services import setup, upload_readers, uploads
    from demo import bridge_sample as sample
    from federation.models import Role
    from results.models import VersionedUpload
    from teams.models import Round
    from tournaments.models import Event

    start = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
    pairs = sample.event_with_pairs(mbsz, pairs=8, title="Böngészős páros", start=start)
    session = setup.create_session(
        pairs, movement="mitchell", pairs=setup.pairs_from_entries(pairs), announced=pairs.sessions.first()
    )
    director = make_user("td-index@example.hu", kind=Role.DIRECTOR, event=pairs)
    rows = sample.play(session, random.Random(7))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    setup.publish(session, director)
    teams = Event.objects.create(
        federation=mbsz,
        title="Böngészős csapat",
        format=Event.Format.TEAMS,
        start_date=datetime.date(2026, 2, 1),
        status=Event.Status.APPROVED,
    )
    Round.objects.create(event=teams, number=1, boards=8, method="swiss", published_at=timezone.now())
    coming = Event.objects.create(
        federation=mbsz,
        title="Holnapi verseny",
        format=Event.Format.PAIRS,
        start_date=timezone.localdate() + datetime.timedelta(days=1),
        status=Event.Status.APPROVED,
    )
    return {"pairs": pairs, "teams": teams, "coming": coming}


def test_results_index_and_home_page(browser, live_server, events):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(live_server.url + reverse("home"))
    upcoming = browser.find_element(By.ID, "upcoming-events").text
    assert "Holnapi verseny" in upcoming and "Böngészős páros" not in upcoming
    latest = browser.find_element(By.ID, "latest-results")
    latest.find_element(By.LINK_TEXT, "Böngészős páros").click()
    assert browser.current_url.endswith(reverse("bridge_event", args=[events["pairs"].pk]))

    browser.find_element(By.CSS_SELECTOR, "nav.navbar").find_element(By.LINK_TEXT, "Eredmények").click()
    assert browser.current_url.endswith(reverse("results"))
    table = browser.find_element(By.ID, "results-index")
    assert {row.get_attribute("data-format") for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")} == {
        "pairs",
        "teams",
    }
    Select(browser.find_element(By.NAME, "event_format")).select_by_value("teams")
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    # The filtered page, not the rows of the page before it (read while the browser was still leaving it).
    WebDriverWait(browser, 10).until(expected_conditions.staleness_of(table))
    rows = browser.find_elements(By.CSS_SELECTOR, "#results-index tbody tr")
    assert [row.get_attribute("data-format") for row in rows] == ["teams"]
    rows[0].find_element(By.TAG_NAME, "a").click()
    assert browser.current_url.endswith(reverse("teams_event", args=[events["teams"].pk]))
    # At 390 px the index does not scroll sideways.
    browser.set_window_size(390, 900)
    browser.get(live_server.url + reverse("results"))
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;")
