"""Ulti table entry on phones (issue #18), in headless Chromium at 390 px: one ulti round of two tables. The
director makes the codes and starts the round clock (a time under the rule set's minimum refused); the phones
enter deals with the picker (declarer, one-tap bid, a lost part tapped), one goes offline and its deal waits
on the phone and is sent once the network is back; all three players of each table confirm; the control room
shows the progress and a late table, and the round's version comes from table entry. Runs with BROWSER=1."""

import datetime
import json
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = [pytest.mark.e2e]

WIDTH = 390
ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (r) => done(JSON.stringify(r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.id + ": " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))),
  (e) => done(JSON.stringify(["axe-error: " + e])),
);
"""
# The deals the phones enter: (declarer's seat, the bid's chip, a part lost).
DEALS = [
    (0, "Passz", False),
    (1, "Piros passz", True),
    (2, "40-100", False),
    (0, "Ulti", True),
    (1, "Betli", False),
    (2, "Színes durchmars", True),
    (0, "Piros ulti", False),
    (1, "Piros 40-100", False),
    (2, "Passz", True),
    (0, "Piros durchmars", True),
    (1, "Betli", True),
    (2, "Passz", False),
]


@pytest.fixture
def phone(browser):
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        # As tall as the window: a shorter emulated screen leaves buttons below it unclickable for selenium.
        {"width": WIDTH, "height": 1600, "deviceScaleFactor": 1, "mobile": True},
    )
    return browser


@pytest.fixture
def played(transactional_db, make_user, mausz, ulti_club, make_person):
    from federation.models import Role
    from tests.ulti.ulti_tables.conftest import make_event
    from ulti.services import draw, setup

    event = make_event(mausz, ulti_club, make_person, title="Telefonos ulti kupa")
    director = make_user("td-ulti-telefon@example.hu", kind=Role.DIRECTOR, event=event)
    setup.ensure_settings(event, unit_forints=20)
    group = setup.start_event(event, director).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, director), director)
    return rnd, director


def _until(predicate, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except Exception:  # the page is reloading
            pass
        time.sleep(0.2)
    return False


def _rows(driver):
    from selenium.webdriver.common.by import By

    return len(driver.find_elements(By.CSS_SELECTOR, "#ulti-sheet tbody tr[data-entry]"))


def _deal(driver, declarer, bid, lost):
    from selenium.webdriver.common.by import By

    driver.find_elements(By.CSS_SELECTOR, "#deal-picker .seat-chip")[declarer].click()
    driver.find_element(
        By.XPATH, f"//button[contains(@class,'bid-chip') and normalize-space()='{bid}']"
    ).click()
    if lost:
        driver.find_element(By.CSS_SELECTOR, "#deal-picker .outcome-chip").click()
    save = driver.find_element(By.ID, "deal-save")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", save)
    try:
        save.click()
    except Exception:
        driver.save_screenshot(str(ROOT / "var" / "ulti-table-debug.png"))
        raise


def _enter(driver, deals):
    for declarer, bid, lost in deals:
        before = _rows(driver)
        _deal(driver, declarer, bid, lost)
        assert _until(lambda before=before: _rows(driver) == before + 1), driver.page_source[-3000:]


def _confirm_all(driver):
    from selenium.webdriver.common.by import By

    for _ in range(3):
        button = driver.find_element(By.CSS_SELECTOR, ".confirm-seat button[value=confirm]")
        seat = button.find_element(By.XPATH, "ancestor::div[@data-seat]").get_attribute("data-seat")
        button.click()
        assert _until(
            lambda seat=seat: (
                driver.find_elements(By.CSS_SELECTOR, f'.confirm-seat[data-seat="{seat}"] .confirmed-mark')
                or driver.find_elements(By.ID, "table-done")
            )
        )


def _offline(driver, offline):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def _log_in(driver, live_server, user):
    client = Client()
    client.force_login(user)
    driver.get(live_server.url + reverse("ulti_table_start"))
    driver.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    )


def test_an_ulti_round_of_two_tables_on_phones(phone, live_server, played):
    from selenium.webdriver.common.by import By

    from ulti.models import RoundClock, RoundUpload, TableEntry, TableScore
    from ulti.services import table_entry

    rnd, director = played
    _log_in(phone, live_server, director)
    # The director: codes, then the clock (25 minutes refused by the MAUSZ rule, 30 taken).
    phone.get(live_server.url + reverse("ulti_table_codes", args=[rnd.pk]))
    phone.find_element(By.CSS_SELECTOR, "#make-codes button").click()
    assert _until(lambda: len(phone.find_elements(By.CSS_SELECTOR, ".table-code")) == 2)
    codes = {c.table.number: c for c in table_entry.codes_of(rnd)}
    phone.get(live_server.url + reverse("ulti_control_room", args=[rnd.pk]))
    minutes = phone.find_element(By.ID, "clock-minutes")
    phone.execute_script("arguments[0].removeAttribute('min'); arguments[0].value = '25';", minutes)
    minutes.submit()
    assert _until(lambda: "30" in phone.find_element(By.CSS_SELECTOR, ".alert-danger, .alert-error").text)
    assert not RoundClock.objects.exists()
    phone.find_element(By.CSS_SELECTOR, "form[action$='/clock/'] button").click()
    assert _until(lambda: RoundClock.objects.filter(minutes=30).exists())

    # Table 1's phone: the page fits 390 px; the clock runs; twelve deals, one of them sent after being offline.
    phone.delete_all_cookies()
    url1 = live_server.url + reverse("ulti_table", args=[codes[1].code])
    phone.get(url1)
    assert phone.execute_script("return [document.documentElement.scrollWidth, window.innerWidth];") == [
        WIDTH,
        WIDTH,
    ]
    assert phone.find_element(By.CSS_SELECTOR, ".round-clock .round-clock-left").text.startswith(
        ("29:", "30:")
    )
    if AXE.exists():
        phone.set_script_timeout(60)
        phone.execute_script(AXE.read_text(encoding="utf-8"))
        assert json.loads(phone.execute_async_script(RUN_AXE)) == []
    _enter(phone, DEALS[:5])
    (ROOT / "var").mkdir(exist_ok=True)
    phone.save_screenshot(str(ROOT / "var" / "ulti-table-phone.png"))

    _offline(phone, True)
    _deal(phone, *DEALS[5])
    assert _until(lambda: phone.find_elements(By.CSS_SELECTOR, "#ulti-sheet tr.queued"))
    queued = phone.execute_script(
        "return JSON.parse(localStorage.getItem(arguments[0])).length", f"ulti-table:{codes[1].code}"
    )
    assert queued == 1
    assert TableEntry.objects.filter(code=codes[1]).count() == 5
    _offline(phone, False)
    assert _until(lambda: TableEntry.objects.filter(code=codes[1]).count() == 6, timeout=30)
    assert _until(lambda: _rows(phone) == 6)
    assert TableEntry.objects.filter(code=codes[1], number=6).count() == 1  # sent once
    _enter(phone, DEALS[6:])

    # Table 2's phone enters its deals; the control room shows the progress before the confirmations.
    url2 = live_server.url + reverse("ulti_table", args=[codes[2].code])
    phone.get(url2)
    _enter(phone, DEALS[:12])
    _log_in(phone, live_server, director)
    phone.get(live_server.url + reverse("ulti_control_room", args=[rnd.pk]))
    assert phone.find_element(By.ID, "table-1").get_attribute("data-status") == "confirming"
    assert "12 / 12" in phone.find_element(By.ID, "table-2").text

    # All three players of each table confirm; the round's version comes from table entry and is scored.
    phone.delete_all_cookies()
    phone.get(url1)
    _confirm_all(phone)
    phone.get(url2)
    _confirm_all(phone)
    assert _until(lambda: phone.find_elements(By.ID, "table-done"))
    upload = RoundUpload.objects.filter(round=rnd).order_by("-number").first()
    assert upload.source == "table" and upload.lines.count() == 6
    assert _until(lambda: TableScore.objects.filter(table__round=rnd).count() == 6)

    # The control room: both tables confirmed; with the time over, nobody late (all done).
    RoundClock.objects.update(started_at=timezone.now() - datetime.timedelta(minutes=31))
    _log_in(phone, live_server, director)
    phone.get(live_server.url + reverse("ulti_control_room", args=[rnd.pk]))
    for number in (1, 2):
        assert phone.find_element(By.ID, f"table-{number}").get_attribute("data-status") == "confirmed"
    assert not phone.find_elements(By.CSS_SELECTOR, ".table-late")


def test_the_live_standings_change_without_reload_at_390px(phone, live_server, played, settings):
    """The public standings of a round played with table codes, anonymous at 390 px: live and provisional,
    the table's standings appear by themselves when a table confirms (no reload), and the mark ends when the
    director publishes the results."""
    from selenium.webdriver.common.by import By

    from tests.ulti.ulti_tables.conftest import confirm_all, fill
    from ulti.services import live, table_entry

    settings.LIVE_POLL_SECONDS = 1
    rnd, director = played
    codes = {c.table.number: c for c in table_entry.create_codes(rnd, director)}
    phone.get(live_server.url + reverse("ulti_standings", args=[rnd.event.pk]))
    assert "élő, nem végleges" in phone.find_element(By.ID, "live-status").text
    assert not phone.find_elements(By.CSS_SELECTOR, "#live table.table-standings")
    phone.execute_script("window.notReloaded = 42;")
    width = "return [document.documentElement.scrollWidth, window.innerWidth];"
    assert phone.execute_script(width) == [WIDTH, WIDTH]

    fill(codes[1])
    confirm_all(codes[1])  # the version and its recompute (eager, after the commit)
    assert _until(lambda: phone.find_elements(By.CSS_SELECTOR, "#live table.table-standings tbody tr"))
    assert phone.execute_script("return window.notReloaded") == 42
    assert "élő, nem végleges" in phone.find_element(By.ID, "live-status").text
    assert phone.execute_script(width) == [WIDTH, WIDTH]
    (ROOT / "var").mkdir(exist_ok=True)
    phone.save_screenshot(str(ROOT / "var" / "ulti-live-standings.png"))

    fill(codes[2])
    confirm_all(codes[2])
    live.publish_results(rnd, director)
    assert _until(lambda: phone.find_elements(By.CSS_SELECTOR, "#live [data-live-final]"))
    assert "élő, nem végleges" not in phone.find_element(By.ID, "live").text
    assert phone.execute_script("return window.notReloaded") == 42
