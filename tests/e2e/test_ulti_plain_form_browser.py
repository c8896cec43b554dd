"""The ulti table phone with JavaScript off (issue #18), headless Chromium at 390 px: the plain form enters
a deal with a kontra and a part lost in step two, an impossible combination is refused in Hungarian with
nothing written and the form kept, the common deal takes three taps in step one, the "impossible part
doubled" box is refused without an impossible part and taken with one, and the page (both steps, a suited
and a no-trump game) fits the phone with no serious accessibility violation. Screenshots in var/. Runs
with BROWSER=1."""

import json
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from tests.e2e.test_ulti_table_browser import AXE, ROOT, RUN_AXE, WIDTH, _until, phone, played  # noqa: F401

pytestmark = [pytest.mark.e2e]


def _scripts(driver, on: bool):
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": not on})


def _fits(driver):
    return driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth];") == [
        WIDTH,
        WIDTH,
    ]


def _tap(driver, css):
    from selenium.webdriver.common.by import By

    element = driver.find_element(By.CSS_SELECTOR, css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    element.click()


def _sheet_fits(driver):
    """The score sheet needs no sideways scrolling of its own (its box scrolls, the page would not show it)."""
    return driver.execute_script(
        "var t = document.getElementById('ulti-sheet'); return t.scrollWidth <= t.parentElement.clientWidth;"
    )


def _rows(driver):
    from selenium.webdriver.common.by import By

    return len(driver.find_elements(By.CSS_SELECTOR, "#ulti-sheet tbody tr[data-entry]"))


def _shot(driver, name):
    (ROOT / "var").mkdir(exist_ok=True)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": max(height, 800), "deviceScaleFactor": 1, "mobile": True},
    )
    driver.save_screenshot(str(ROOT / "var" / name))
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": 1600, "deviceScaleFactor": 1, "mobile": True},
    )


def test_the_plain_form_without_javascript_on_a_phone(phone, live_server, played):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from ulti.models import TableEntry
    from ulti.services import table_entry

    rnd, director = played
    code = table_entry.create_codes(rnd, director)[0]
    seats = table_entry.seats_of(code.table)
    url = live_server.url + reverse("ulti_table", args=[code.code])
    _scripts(phone, False)
    phone.get(url)
    assert phone.find_element(By.ID, "deal-plain-form").get_attribute("data-step") == "pick"
    assert _fits(phone)
    _shot(phone, "ulti-plain-step1.png")

    # Step one: the declarer, the bid, then the rest of the deal.
    _tap(phone, 'label[for="plain-declarer-1"]')
    _tap(phone, 'label[for="plain-bid-4"]')  # Ulti
    _tap(phone, "#plain-details")
    assert _until(
        lambda: phone.find_element(By.ID, "deal-plain-form").get_attribute("data-step") == "details"
    )
    assert phone.find_element(By.ID, "deal-plain-form").get_attribute("data-step") == "details"
    assert phone.find_element(By.ID, "plain-bid-label").text == "Ulti"
    assert _fits(phone)
    defender = seats[2]
    _tap(phone, f'label[for="k-ulti-{defender.key}-1"]')  # kontra on the ulti
    _tap(phone, 'label[for="r-parti-1"]')  # the parti lost
    # A silent 100 of the declarer beside a parti he lost: refused, in Hungarian, nothing written.
    _tap(phone, ".plain-extras summary")
    Select(phone.find_element(By.ID, "plain-s_100")).select_by_value("declarer")
    _shot(phone, "ulti-plain-step2.png")
    _tap(phone, "#plain-save")
    assert _until(lambda: phone.find_elements(By.CSS_SELECTOR, ".alert-danger"))
    alerts = phone.find_elements(By.CSS_SELECTOR, ".alert-danger")
    assert len(alerts) == 1  # shown once
    alert = alerts[0].text
    assert "1. leosztás: az ütéssel teljesített csendes 100 ugyanannak a félnek nyeri a partit" in alert
    assert not TableEntry.objects.exists()
    assert phone.find_element(By.ID, f"k-ulti-{defender.key}-1").is_selected()
    assert _fits(phone)
    _shot(phone, "ulti-plain-refused.png")
    # Put right: no silent 100. Saved with its kontra, shown on the sheet.
    Select(phone.find_element(By.ID, "plain-s_100")).select_by_value("")
    _tap(phone, "#plain-save")
    assert _until(lambda: TableEntry.objects.exists() and _rows(phone) == 1)
    entry = TableEntry.objects.get()
    assert entry.record["kontra"] == {"ulti": {defender.key: 1}}
    assert entry.record["results"] == {"ulti": "won", "parti": "lost"}
    assert "kontra (3)" in phone.find_element(By.CSS_SELECTOR, "#ulti-sheet tbody tr.deal-summary").text

    # The common deal: three taps in step one.
    _tap(phone, 'label[for="plain-declarer-0"]')
    _tap(phone, 'label[for="plain-bid-0"]')  # Passz
    _tap(phone, "#plain-save")
    assert _until(lambda: _rows(phone) == 2)
    assert TableEntry.objects.get(number=2).record["bid"] == "passz"
    assert _fits(phone) and _sheet_fits(phone)
    _shot(phone, "ulti-plain-sheet.png")

    # Deal 3, 40-100 ulti: the box of an impossible part sits under the outcomes and says when it applies.
    declarer, kontra_by = seats[1], seats[0]
    step_two = url + "?" + urlencode({"declarer": declarer.key, "bid": "40-100 ulti"})
    phone.get(step_two)
    assert phone.find_element(By.ID, "deal-plain-form").get_attribute("data-step") == "details"
    assert _fits(phone)
    assert phone.find_element(By.CSS_SELECTOR, ".plain-results #plain-impdbl").is_displayed()
    assert (
        "Csak ha egy rész lehetetlennek van jelölve"
        in phone.find_element(By.CSS_SELECTOR, 'label[for="plain-impdbl"]').text
    )
    assert "mindkét védőre érvényes" in phone.find_element(By.ID, "plain-kontra-rule").text
    _tap(phone, f'label[for="k-ulti-{kontra_by.key}-1"]')
    _tap(phone, 'label[for="plain-impdbl"]')
    _shot(phone, "ulti-plain-step2-impossible.png")
    # Ticked with no part marked impossible: refused in Hungarian, nothing written, the form as it was.
    _tap(phone, "#plain-save")
    assert _until(lambda: phone.find_elements(By.CSS_SELECTOR, ".alert-danger"))
    assert (
        "csak lehetetlennek jelölt részhez tartozik"
        in phone.find_element(By.CSS_SELECTOR, ".alert-danger").text
    )
    assert TableEntry.objects.count() == 2
    box = phone.find_element(By.ID, "plain-impdbl")
    assert box.is_selected() and phone.find_element(By.ID, f"k-ulti-{kontra_by.key}-1").is_selected()
    assert _fits(phone)
    # The ulti marked impossible: taken, paid as a failed ulti with its kontra.
    _tap(phone, 'label[for="r-ulti-2"]')
    _tap(phone, "#plain-save")
    assert _until(lambda: TableEntry.objects.filter(number=3).exists())
    entry = TableEntry.objects.get(number=3)
    assert entry.record["results"] == {"hundred": "won", "ulti": "impossible"}
    assert (
        entry.record["kontra"] == {"ulti": {kontra_by.key: 1}} and entry.record["impossible_doubled"] is True
    )

    # A no-trump game asks each defender's own kontra, and says why.
    betli = url + "?" + urlencode({"declarer": declarer.key, "bid": "betli"})
    phone.get(betli)
    assert "csak a kontrázóra érvényes" in phone.find_element(By.ID, "plain-kontra-rule").text
    assert phone.find_element(By.ID, f"k-betli-{kontra_by.key}-0").is_selected()
    assert _fits(phone)
    _shot(phone, "ulti-plain-step2-betli.png")

    if AXE.exists():  # both steps as the phone without JavaScript shows them, checked by axe (run from here)
        phone.set_script_timeout(60)
        for address in (url, url + "?deal=1", step_two, betli):
            _scripts(phone, False)
            phone.get(address)
            _scripts(phone, True)
            phone.execute_script(AXE.read_text(encoding="utf-8"))
            assert json.loads(phone.execute_async_script(RUN_AXE)) == [], address


def _declare(driver, seat: int, bid: str) -> None:
    """On the picker's next deal: the declarer (the seat's index) and the bid (its chip's label)."""
    from selenium.webdriver.common.by import By

    assert _until(lambda: driver.find_elements(By.CSS_SELECTOR, "#deal-picker .seat-chip"))
    driver.find_elements(By.CSS_SELECTOR, "#deal-picker .seat-chip")[seat].click()
    driver.find_element(
        By.XPATH, f"//button[contains(@class,'bid-chip') and normalize-space()='{bid}']"
    ).click()


def _open_picker(driver, server, round_and_director):
    """The first table's phone page with its picker drawn: (the table's code, its seats)."""
    from selenium.webdriver.common.by import By

    from ulti.services import table_entry

    rnd, director = round_and_director
    code = table_entry.create_codes(rnd, director)[0]
    driver.get(server.url + reverse("ulti_table", args=[code.code]))
    assert _until(lambda: driver.find_elements(By.CSS_SELECTOR, "#deal-picker .seat-chip"))
    return code, table_entry.seats_of(code.table)


def test_the_picker_takes_what_the_plain_form_takes(phone, live_server, played):  # noqa: F811
    """With JavaScript on, the picker sends an impossible ulti doubled in the first round and a revoke in
    the bidding, and stores the record the plain form makes of the same deal."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from ulti.engine import table_entry as deals
    from ulti.models import TableEntry

    code, seats = _open_picker(phone, live_server, played)
    keys = [s.key for s in seats]
    # Deal 1: ulti by seat 1, the ulti impossible (two taps), a kontra by seat 2, doubled in the first round.
    phone.find_elements(By.CSS_SELECTOR, "#deal-picker .seat-chip")[0].click()
    phone.find_element(By.XPATH, "//button[contains(@class,'bid-chip') and normalize-space()='Ulti']").click()
    for _ in range(2):
        phone.find_element(By.CSS_SELECTOR, '#deal-picker .outcome-chip[data-slot="ulti"]').click()
    _tap(phone, "#deal-picker details summary")
    # Beside an ulti the picker asks for a silent 100 and four aces, not for a silent ulti (as the form).
    labels = [
        s.get_attribute("aria-label")
        for s in phone.find_elements(By.CSS_SELECTOR, "#deal-picker details select")
    ]
    assert "csendes száz" in labels and "csendes négy ász" in labels and "csendes ulti" not in labels
    # A suited game: the ulti's one kontra, said by the first defender unless another is tapped.
    _tap(phone, '#deal-picker .kontra-chip[data-slot="ulti"]')
    _tap(phone, "#picker-impdbl")
    _tap(phone, "#deal-save")
    assert _until(lambda: _rows(phone) == 1)
    fields = {
        "declarer": keys[0],
        "bid": "ulti",
        "r_ulti": "impossible",
        f"k_ulti_{keys[1]}": "1",
        "impdbl": "1",
    }
    stored = TableEntry.objects.get(number=1).record
    assert stored == deals.clean(deals.plain_record(fields), keys, 1)
    assert stored["impossible_doubled"] is True
    # Deal 2: 40-100 by seat 2, who revealed the trump suit in the bidding.
    _declare(phone, 1, "40-100")
    _tap(phone, "#deal-picker details summary")
    Select(phone.find_element(By.CSS_SELECTOR, "#deal-picker details select:last-of-type")).select_by_value(
        f"{keys[1]}|bidding:trump suit"
    )
    _tap(phone, "#deal-save")
    assert _until(lambda: _rows(phone) == 2)
    entry = TableEntry.objects.get(number=2)
    fields = {"declarer": keys[1], "bid": "40-100", "rv_player": keys[1], "rv_when": "bidding:trump suit"}
    assert entry.record == deals.clean(deals.plain_record(fields), keys, 2)
    assert entry.forints == {keys[0]: 160, keys[1]: -320, keys[2]: 160}  # 40-100 doubled, 20 Ft a unit


def test_the_picker_asks_one_kontra_per_part_in_a_suited_game(phone, live_server, played):  # noqa: F811
    """A kontra in a suited game binds both defenders (I.3 (3)): the picker asks one kontra per part (its
    level, then who said it), under the plain form's line, and the deal settles as the engine's; a no-trump
    game keeps one kontra per defender and part. The page fits 390 px with the kontras open."""
    from selenium.webdriver.common.by import By

    from ulti.engine import table_entry as deals
    from ulti.models import TableEntry

    code, seats = _open_picker(phone, live_server, played)
    keys = [s.key for s in seats]

    def kontra_chips(slot):
        return phone.find_elements(By.CSS_SELECTOR, f'#deal-picker .kontra-chip[data-slot="{slot}"]')

    # Deal 1: ulti by seat 1; a rekontra on the ulti, said by seat 3 (two taps, and one for who said it).
    phone.find_elements(By.CSS_SELECTOR, "#deal-picker .seat-chip")[0].click()
    phone.find_element(By.XPATH, "//button[contains(@class,'bid-chip') and normalize-space()='Ulti']").click()
    _tap(phone, "#deal-picker details summary")
    assert "mindkét védőre érvényes" in phone.find_element(By.ID, "picker-kontra-rule").text
    assert [len(kontra_chips(slot)) for slot in ("parti", "ulti")] == [1, 1]
    assert kontra_chips("ulti")[0].text == "nincs kontra"
    assert not phone.find_elements(By.CSS_SELECTOR, "#deal-picker .kontra-by-chip")  # nothing said yet
    for _ in range(2):
        _tap(phone, '#deal-picker .kontra-chip[data-slot="ulti"]')
    assert kontra_chips("ulti")[0].text == "rekontra" and len(kontra_chips("ulti")) == 1
    by = phone.find_elements(By.CSS_SELECTOR, '#deal-picker .kontra-by-chip[data-slot="ulti"]')
    assert [b.get_attribute("aria-pressed") for b in by] == ["true", "false"]  # the first defender
    assert [b.text for b in by] == [f"{s.position}. {s.name}" for s in seats[1:]]
    by[1].click()
    assert _fits(phone)
    _shot(phone, "ulti-picker-suited-kontra.png")
    if AXE.exists():  # the picker with a part's kontra and who said it open
        phone.set_script_timeout(60)
        phone.execute_script(AXE.read_text(encoding="utf-8"))
        assert json.loads(phone.execute_async_script(RUN_AXE)) == []
    _tap(phone, "#deal-save")
    assert _until(lambda: _rows(phone) == 1)
    entry = TableEntry.objects.get(number=1)
    assert entry.record["kontra"] == {"ulti": {keys[2]: 2}}
    fields = {"declarer": keys[0], "bid": "ulti", "k_ulti": f"{keys[2]}:2"}
    assert entry.record == deals.clean(deals.plain_record(fields), keys, 1)
    # Ulti 4 units rekontrád (x4) and the parti 1, from each defender, at 20 Ft: whoever said the rekontra.
    assert entry.forints == {keys[0]: 680, keys[1]: -340, keys[2]: -340}

    # Deal 2: betli by seat 2, a kontra of seat 3 only: one per defender, and it binds only him.
    _declare(phone, 1, "Betli")
    _tap(phone, "#deal-picker details summary")
    assert "csak a kontrázóra érvényes" in phone.find_element(By.ID, "picker-kontra-rule").text
    chips = kontra_chips("betli")
    assert [c.get_attribute("data-seat") for c in chips] == [keys[0], keys[2]]
    assert [c.text for c in chips] == ["1. nincs kontra", "3. nincs kontra"]
    chips[1].click()
    assert [c.text for c in kontra_chips("betli")] == ["1. nincs kontra", "3. kontra"]
    assert not phone.find_elements(By.CSS_SELECTOR, "#deal-picker .kontra-by-chip")
    assert _fits(phone)
    _shot(phone, "ulti-picker-betli-kontra.png")
    _tap(phone, "#deal-save")
    assert _until(lambda: _rows(phone) == 2)
    entry = TableEntry.objects.get(number=2)
    assert entry.record["kontra"] == {"betli": {keys[2]: 1}}
    fields = {"declarer": keys[1], "bid": "betli", f"k_betli_{keys[2]}": "1"}
    assert entry.record == deals.clean(deals.plain_record(fields), keys, 2)
    # Betli 5 units: seat 1 pays it plain, seat 3 doubled, at 20 Ft.
    assert entry.forints == {keys[0]: -100, keys[1]: 300, keys[2]: -200}
