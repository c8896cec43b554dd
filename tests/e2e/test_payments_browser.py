"""Payments in headless Chromium: the club's admin records a cash payment on an entry's page, then imports a
bank statement whose transfer is matched by its reference, confirms the preview, and the fee ledger shows
both entries paid; the pages fit a 390 px screen.

Runs with BROWSER=1 (Chromium and chromedriver installed, `selenium` in the virtualenv); skipped elsewhere.
"""

import time

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = [pytest.mark.e2e]


@pytest.fixture
def club_admin(transactional_db, make_user, bridge_club):
    from federation.models import Role

    return make_user("admin-pay@example.hu", kind=Role.CLUB_ADMIN, club=bridge_club)


@pytest.fixture
def world(transactional_db, mbsz, bridge_club, make_person):
    import datetime

    from tournaments.models import Entry, EntryMember, Event

    event = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Böngészős klubverseny",
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=timezone.localdate() + datetime.timedelta(days=30),
        status=Event.Status.APPROVED,
        entry_fee=2000,
    )
    entries = []
    for _ in range(2):
        entry = Entry.objects.create(event=event)
        for i in (1, 2):
            person = make_person(federation=mbsz, club=bridge_club)
            EntryMember.objects.create(entry=entry, person=person, position=i, confirmed_at=timezone.now())
        entries.append(entry)
    return event, entries


def _log_in(driver, live_server, user):
    client = Client()
    client.force_login(user)
    driver.get(live_server.url + reverse("calendar"))
    driver.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    )


def _fits(driver):
    scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    return scroll <= inner


def test_a_payment_recorded_and_a_transfer_matched_from_a_bank_csv(
    browser, live_server, world, club_admin, bridge_club, tmp_path
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from tournaments.engine.payments import reference_for
    from tournaments.models import Payment

    event, (cash, transfer) = world
    _log_in(browser, live_server, club_admin)

    browser.get(live_server.url + reverse("entry_payments", args=[cash.pk]))
    form = browser.find_element(By.ID, "record-payment")
    form.find_element(By.NAME, "amount").send_keys("4000")
    Select(form.find_element(By.NAME, "method")).select_by_value("cash")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert (
        browser.find_element(By.CSS_SELECTOR, "[data-payment-status]").get_attribute("data-payment-status")
        == "paid"
    )

    statement = tmp_path / "kivonat.csv"
    statement.write_bytes(
        (
            "Könyvelés dátuma;Összeg;Partner neve;Közlemény\r\n"
            f"{timezone.localdate():%Y.%m.%d.};4 000,00;Kovács Péter;Nevezés {reference_for(transfer.pk)}\r\n"
            f"{timezone.localdate():%Y.%m.%d.};1 000,00;Ismeretlen;köszönöm\r\n"
        ).encode("cp1250")
    )
    browser.get(live_server.url + reverse("club_bank_statement", args=[bridge_club.pk]))
    browser.find_element(By.NAME, "statement").send_keys(str(statement))
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    assert "Kovács Péter" in browser.find_element(By.ID, "statement-matched").text
    assert "köszönöm" in browser.find_element(By.ID, "statement-unmatched").text
    browser.set_window_size(390, 1600)
    assert _fits(browser)
    browser.set_window_size(1280, 1600)
    browser.find_element(By.CSS_SELECTOR, "form input[name=signed] ~ button").click()
    booked = Payment.objects.filter(entry=transfer, method="transfer", amount=4000)
    for _ in range(150):  # the confirmation's POST answers after the click returns (a loaded machine)
        if booked.exists():
            break
        time.sleep(0.1)
    assert booked.count() == 1

    browser.get(live_server.url + reverse("fee_ledger", args=[event.pk]))
    statuses = [
        el.get_attribute("data-payment-status")
        for el in browser.find_elements(By.CSS_SELECTOR, "tbody [data-payment-status]")
    ]
    assert statuses == ["paid", "paid"]
    browser.set_window_size(390, 1600)
    assert _fits(browser)
