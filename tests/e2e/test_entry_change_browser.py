"""A partner replaced in headless Chromium: the entrant finds the newcomer by name through the picker's
<datalist> (static/js/person-picker.js, no CSP violation), the newcomer accepts on his entries page.

Runs with BROWSER=1 (Chromium and chromedriver installed, `selenium` in the virtualenv); skipped elsewhere.
"""

import datetime
import time

import pytest
from django.urls import reverse
from django.utils import timezone

from .test_appeal_browser import Walk

pytestmark = [pytest.mark.e2e]


def _wait(condition, seconds=10):
    for _ in range(int(seconds * 10)):
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    return condition()


def test_partner_replaced_through_the_name_picker(
    browser, live_server, transactional_db, mbsz, bridge_club, make_person, make_user
):
    from selenium.webdriver.common.by import By

    from tournaments.models import EntryChange, Event
    from tournaments.services import entries

    event = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Cserés páros",
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=timezone.localdate() + datetime.timedelta(days=30),
        status=Event.Status.APPROVED,
    )
    me = make_person(mbsz, club=bridge_club, user=make_user("nevezo@example.hu"))
    partner = make_person(mbsz, club=bridge_club, user=make_user("partner@example.hu"))
    newcomer = make_person(
        mbsz, club=bridge_club, user=make_user("uj@example.hu"), first_name="Ágnes", last_name="Székely"
    )
    entry = entries.create_entry(event.pk, me.user, [me, partner])

    walk = Walk(browser, live_server)
    walk.login(me.user)
    browser.get(live_server.url + reverse("entry_replace", args=[entry.pk]))
    field = browser.find_element(By.NAME, "newcomer")
    field.send_keys("Szekely")
    option = _wait(lambda: browser.execute_script("return document.querySelector('datalist option')?.value;"))
    assert option == f"Székely Ágnes (BBE) #{newcomer.pk}"
    field.clear()
    field.send_keys(option)
    field.submit()
    change = _wait(lambda: EntryChange.objects.filter(entry=entry).first())
    assert change is not None and change.new_person == newcomer

    walk.login(newcomer.user)
    browser.get(live_server.url + reverse("my_entries"))
    browser.find_element(
        By.CSS_SELECTOR, f"form[action='{reverse('entry_change_accept', args=[change.pk])}'] button"
    ).click()
    assert _wait(lambda: entry.members.filter(person=newcomer).exists())
    logs = [e["message"] for e in browser.get_log("browser") if "Content Security Policy" in e["message"]]
    assert logs == []
