"""Table entry on a phone (issue #18), in headless Chromium at 390 px: North enters a board in Hungarian
notation, East confirms it, and an entry made without a network waits on the phone and is sent (once) when
the network is back. Runs with BROWSER=1 (see tests/e2e/conftest.py); skipped elsewhere."""

import datetime
import json
import time
from pathlib import Path

import pytest
from django.utils import timezone

pytestmark = [pytest.mark.e2e]

WIDTH = 390
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (r) => done(JSON.stringify(r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.id + ": " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))),
  (e) => done(JSON.stringify(["axe-error: " + e])),
);
"""


@pytest.fixture
def phone(browser):
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": 844, "deviceScaleFactor": 1, "mobile": True},
    )
    return browser


@pytest.fixture
def codes(transactional_db, make_user, mbsz):
    from bridge.services import setup, table_entry
    from demo import bridge_sample as sample
    from federation.models import Role

    start = timezone.make_aware(datetime.datetime(2026, 5, 9, 10, 0))
    event = sample.event_with_pairs(mbsz, pairs=6, title="Telefonos bevitel", start=start)
    director = make_user("td-telefon@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    return {code.table: code for code in table_entry.create_codes(session, director)}


def _until(predicate, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def _enter(driver, board, contract, result):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    card = driver.find_element(By.ID, f"board-{board}")
    card.find_element(By.NAME, "contract").send_keys(contract)
    Select(card.find_element(By.NAME, "declarer")).select_by_value("N")
    card.find_element(By.NAME, "result").send_keys(result)
    card.find_element(By.CSS_SELECTOR, "button.btn-primary").click()


def _status(driver, board):
    from selenium.webdriver.common.by import By

    try:
        return driver.find_element(By.ID, f"board-{board}").get_attribute("data-status")
    except Exception:  # the page is reloading
        return None


def test_a_table_enters_and_confirms_a_board_and_syncs_after_going_offline(phone, live_server, codes):
    from selenium.webdriver.common.by import By

    from bridge.models import TableEntry
    from bridge.services import versions

    code = codes[1]
    phone.get(f"{live_server.url}/bridge/table/{code.code}/")
    assert phone.execute_script("return [document.documentElement.scrollWidth, window.innerWidth];") == [
        WIDTH,
        WIDTH,
    ]
    if AXE.exists():  # the phone page as test_axe_browser checks the public pages
        phone.set_script_timeout(60)
        phone.execute_script(AXE.read_text(encoding="utf-8"))
        assert json.loads(phone.execute_async_script(RUN_AXE)) == []
    _enter(phone, 1, "4♠", "=")
    assert _until(lambda: _status(phone, 1) == "entered"), phone.page_source[-2000:]
    assert "420" in phone.find_element(By.ID, "board-1").text
    phone.find_element(By.CSS_SELECTOR, "#board-1 button[value=confirm]").click()
    assert _until(lambda: _status(phone, 1) == "confirmed")
    assert versions.latest_version(code.session).source == "table"

    # Offline: the entry waits in localStorage, then goes once the network is back.
    phone.execute_cdp_cmd("Network.enable", {})
    phone.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    _enter(phone, 2, "3SZA", "+1")
    assert _until(
        lambda: "table-entry:" in (phone.execute_script("return Object.keys(localStorage).join()") or "")
    )
    assert _until(
        lambda: (
            phone.execute_script(
                "return JSON.parse(localStorage.getItem(arguments[0])).length", f"table-entry:{code.code}"
            )
            == 1
        )
    )
    assert not TableEntry.objects.filter(board=2).exists()
    phone.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    assert _until(lambda: TableEntry.objects.filter(board=2).exists(), timeout=30)
    assert _until(lambda: _status(phone, 2) == "entered")
    assert TableEntry.objects.filter(board=2).count() == 1
    assert TableEntry.objects.get(board=2).score == 630  # board 2: N-S vulnerable
