"""A 3-table Howell round played on phones (issue #18), in headless Chromium with phone-sized windows: three
phones enter and confirm their boards, one of them loses the network and sends its kept entry when it is
back, the director's control room shows the progress and the late table, and the public standings page
(anonymous, live and provisional) changes without a reload. Runs with BROWSER=1; skipped elsewhere."""

import datetime
import os
import time

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = [pytest.mark.e2e]

WIDTH = 390


def _chromium():
    if os.environ.get("BROWSER") != "1":
        pytest.skip("browser tests run with BROWSER=1")
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--lang=hu"):
        options.add_argument(flag)
    options.add_experimental_option(
        "mobileEmulation", {"deviceMetrics": {"width": WIDTH, "height": 844, "pixelRatio": 1.0}}
    )
    service = webdriver.ChromeService(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.implicitly_wait(5)
    return driver


@pytest.fixture
def drivers():
    made = []

    def make():
        made.append(_chromium())
        return made[-1]

    yield make
    for driver in made:
        driver.quit()


@pytest.fixture
def howell(transactional_db, make_user, mbsz):
    from bridge.services import setup, table_entry
    from demo import bridge_sample as sample
    from federation.models import Role

    start = timezone.make_aware(datetime.datetime(2026, 5, 9, 10, 0))
    event = sample.event_with_pairs(mbsz, pairs=6, title="Élő Howell", start=start)
    director = make_user("td-howell@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="howell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    codes = {code.table: code for code in table_entry.create_codes(session, director)}
    return session, director, codes


def _until(predicate, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except Exception:  # a page reloading under the check
            pass
        time.sleep(0.25)
    return False


def _status(driver, board):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, f"board-{board}").get_attribute("data-status")


def _click(driver, element):
    """A tap: the button's own click (the form's submit event names it as its submitter)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].click();", element)


def _enter(driver, board, contract="3SZA", result="="):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    card = driver.find_element(By.ID, f"board-{board}")
    card.find_element(By.NAME, "contract").send_keys(contract)
    Select(card.find_element(By.NAME, "declarer")).select_by_value("N")
    card.find_element(By.NAME, "result").send_keys(result)
    _click(driver, card.find_element(By.CSS_SELECTOR, "button.btn-primary"))


def _confirm(driver, board):
    from selenium.webdriver.common.by import By

    _click(driver, driver.find_element(By.CSS_SELECTOR, f"#board-{board} button[value=confirm]"))


def _confirmed(code, board) -> bool:
    from bridge.models import TableEntry

    return TableEntry.objects.filter(code=code, board=board, kind="confirm", version__isnull=False).exists()


def _network(driver, online: bool):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def _log_in(driver, live_server, user):
    client = Client()
    client.force_login(user)
    driver.get(live_server.url + reverse("bridge_table_start"))
    driver.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    )


def test_a_howell_round_on_three_phones_with_a_late_offline_table(live_server, howell, drivers, settings):
    from selenium.webdriver.common.by import By

    from bridge.models import RoundClock, TableEntry
    from bridge.services import table_entry

    settings.LIVE_POLL_SECONDS = 1
    session, director, codes = howell
    boards = {t: [b.board for b in table_entry.current_round(c).boards] for t, c in codes.items()}

    # The public standings page, anonymous: live and provisional, nothing yet.
    viewer = drivers()
    viewer.get(live_server.url + reverse("bridge_session", args=[session.pk]))
    assert "élő, nem végleges" in viewer.find_element(By.ID, "live-status").text
    assert not viewer.find_elements(By.CSS_SELECTOR, "#live table.table-results")
    viewer.execute_script("window.notReloaded = 42;")
    assert viewer.execute_script("return [document.documentElement.scrollWidth, window.innerWidth];") == [
        WIDTH,
        WIDTH,
    ]

    # Three phones (windows of one phone-sized browser): tables 1 and 2 enter and confirm both boards.
    phones = drivers()
    handles = {}
    for table in (3, 1, 2):  # table 3 first: the window the browser's network emulation acts on
        code = codes[table]
        if handles:
            phones.switch_to.new_window("window")
        phones.get(f"{live_server.url}/bridge/table/{code.code}/")
        handles[table] = phones.current_window_handle
    for table in (1, 2):
        phones.switch_to.window(handles[table])
        for board in boards[table]:
            _enter(phones, board)
            assert _until(lambda board=board: _status(phones, board) == "entered"), phones.page_source[-1500:]
            _confirm(phones, board)
            assert _until(lambda board=board, table=table: _confirmed(codes[table], board))
        # The round done, the phone shows its next round of the movement (boards and opponents).
        assert _until(lambda: "2. kör" in phones.find_element(By.TAG_NAME, "h2").text)

    # Table 3 enters its first board, then loses the network: the second waits on the phone.
    phones.switch_to.window(handles[3])
    first, second = boards[3]
    _enter(phones, first)
    assert _until(lambda: _status(phones, first) == "entered")
    _network(phones, online=False)
    _enter(phones, second, contract="4♠", result="-1")
    store = f"table-entry:{codes[3].code}"
    kept = "return JSON.parse(localStorage.getItem(arguments[0]) || '[]').length"
    assert _until(lambda: phones.execute_script(kept, store) == 1), (
        phones.execute_script(kept, store),
        TableEntry.objects.filter(code=codes[3]).count(),
        phones.find_element(By.ID, "table-entry-status").text,
        phones.execute_script("return navigator.onLine"),
        phones.current_url,
    )
    assert not TableEntry.objects.filter(code=codes[3], board=second).exists()

    # The director: the round's clock ran out; table 3 is late, tables 1 and 2 have finished round 1.
    RoundClock.objects.create(
        session=session,
        round=1,
        started_at=timezone.now() - datetime.timedelta(minutes=20),
        minutes=15,
        started_by=director,
    )
    room = drivers()
    _log_in(room, live_server, director)
    room.get(live_server.url + reverse("bridge_control_room", args=[session.pk]))
    late = room.find_elements(By.CSS_SELECTOR, "tr.table-late")
    assert [row.text.split()[0][-1] for row in late] == ["3"], room.page_source[-2000:]
    assert len(room.find_elements(By.CSS_SELECTOR, ".board-status-confirmed")) == 4
    assert len(room.find_elements(By.CSS_SELECTOR, ".board-status-entered")) == 1

    # The public page changed by itself: the standings of the confirmed boards, no reload.
    assert _until(lambda: viewer.find_elements(By.CSS_SELECTOR, "#live table.table-results"), timeout=40)
    assert viewer.execute_script("return window.notReloaded;") == 42
    assert "élő, nem végleges" in viewer.find_element(By.ID, "live-status").text

    # Table 3's network is back: the kept entry is sent once, then East confirms both boards.
    phones.switch_to.window(handles[3])
    _network(phones, online=True)
    assert _until(lambda: TableEntry.objects.filter(code=codes[3], board=second).exists(), timeout=40)
    assert _until(lambda: _status(phones, second) == "entered")
    assert TableEntry.objects.filter(code=codes[3], board=second).count() == 1
    for board in (first, second):
        _confirm(phones, board)
        assert _until(lambda board=board: _confirmed(codes[3], board))
    room.refresh()
    assert not room.find_elements(By.CSS_SELECTOR, "tr.table-late")
    assert len(room.find_elements(By.CSS_SELECTOR, ".board-status-confirmed")) == 6
    # Every table is in round 2 now: its phone shows round 2's boards and opponents.
    assert _until(
        lambda: "2. kör" in phones.find_element(By.TAG_NAME, "h2").text or "Round 2" in phones.page_source
    )
