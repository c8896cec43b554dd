"""In the browser: a player downloads his data, buys a licence on entering a sport ulti event, and erases
his data, the outbox and the audit log forgetting him too (Hungarian Chromium; runs with BROWSER=1)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from federation.models import ErasureRequest, LicenceFee, Person
from tournaments.models import Event

from .test_appeal_browser import Walk

pytestmark = [pytest.mark.e2e]
YEAR = timezone.localdate().year

FETCH = """
const done = arguments[arguments.length - 1];
fetch(arguments[0], {credentials: "same-origin"}).then(r => r.arrayBuffer()).then(b => {
  const bytes = new Uint8Array(b);
  done({bom: bytes[0] === 0xEF && bytes[1] === 0xBB && bytes[2] === 0xBF, text: new TextDecoder().decode(bytes)});
});
"""


@pytest.fixture
def player(transactional_db, make_person, make_user, mausz, ulti_club):
    user = make_user("bongeszo@example.hu")
    return make_person(federation=mausz, club=ulti_club, user=user, first_name="Böngésző", last_name="Béla")


def test_export_licence_on_entry_and_erasure(browser, live_server, player, make_person, mausz, ulti_club):
    from federation.models import Licence

    mausz.licence_fee = 3000
    mausz.save()
    mates = [make_person(federation=mausz, club=ulti_club) for _ in range(2)]
    for mate in mates:
        Licence.objects.create(person=mate, federation=mausz, year=YEAR)
    event = Event.objects.create(
        federation=mausz, club=ulti_club, title="Sportulti", format=Event.Format.SPORT_ULTI,
        event_class=Event.EventClass.SPORT_ULTI, start_date=timezone.localdate() + datetime.timedelta(days=20),
        season=YEAR, status=Event.Status.APPROVED, entry_fee=0,
    )  # fmt: skip
    walk = Walk(browser, live_server)
    walk.login(player.user)

    # the export, as the page's CSV link downloads it
    walk.go(reverse("my_data"))
    csv_href = browser.find_element("css selector", f"a[href='{reverse('my_data_export', args=['csv'])}']")
    got = browser.execute_async_script(FETCH, csv_href.get_attribute("href"))
    assert got["bom"] and "person;1;last_name;Béla" in got["text"]

    # a licence bought with the entry
    walk.go(reverse("entry_create", args=[event.pk]))
    numbers = [m.memberships.get().member_number for m in mates]
    walk.fill("main form", {"team_name": "Piros Ászok", "player_2": numbers[0], "player_3": numbers[1]})
    browser.find_element("css selector", "input[name=buy_licences]").click()
    walk.click("main form button[type=submit]")
    fee = LicenceFee.objects.get(licence__person=player)
    assert fee.amount == 3000 and not fee.is_paid and fee.entry.event == event
    walk.go(reverse("profile"))
    assert "3000 Ft" in walk.text()

    # erasure: the request, then carried out with the password (a mail to him waiting in the outbox)
    from federation.services.notifications import notify

    notify([player.user.email], "Béla Böngésző nevezése", "Kedves Béla Böngésző!")
    walk.go(reverse("my_data"))
    walk.fill(f"form[action='{reverse('erasure_request')}']", {"reason": "Nem játszom többet."})
    walk.click(f"form[action='{reverse('erasure_request')}'] button")
    req = ErasureRequest.objects.get(person=player)
    form = f"form[action='{reverse('erasure_confirm', args=[req.pk])}']"
    walk.fill(form, {"password": "jelszo-12345"})
    browser.find_element("css selector", f"{form} input[name=understood]").click()
    walk.click(f"{form} button")
    person = Person.objects.get(pk=player.pk)
    assert person.anonymised_at is not None and "Böngésző" not in str(person)
    assert fee.licence.person_id == person.pk  # the licence and the entry stay with the anonymous person
    # The outbox no longer names him nor mails his address.
    from auditlog.models import LogEntry

    from federation.models import Notification

    mails = list(Notification.objects.all())
    assert mails and all("bongeszo@example.hu" not in f"{m.recipient} {m.body}" for m in mails)
    assert all("Böngésző" not in f"{m.subject} {m.body}" for m in mails)
    assert not LogEntry.objects.filter(object_repr__contains="Böngésző").exists()
