"""Issue #20 in headless Chromium: the navbar's organiser entries by role, the portal's own Hungarian 403 and
404 pages, the event page's "Óvások" button only for who may open it, and the documents the pages link to (an
event's .ics, a bridge event's results PDF that renders, an entry list's CSV as Hungarian Excel reads it).

The links are found on the rendered page and followed by the browser itself (a `fetch` in the page, with the
browser's own session cookie), so what is checked is what the visitor gets.

Runs with BROWSER=1 (Chromium and chromedriver installed, `selenium` in the virtualenv); skipped elsewhere.
"""

import base64
import datetime
import random

import pytest
from django.urls import reverse
from django.utils import timezone

from .test_appeal_browser import Walk

pytestmark = [pytest.mark.e2e]

ORGANISER_ENTRIES = ("Saját versenyeim", "Új kiírás", "Jóváhagyásra vár")

# Fetches a URL from inside the page (same origin, the browser's cookies) and answers its status, type and
# body in base64 (the PDF is binary).
FETCH = """
const done = arguments[arguments.length - 1];
fetch(arguments[0], {credentials: "same-origin"}).then(async (answer) => {
  const bytes = new Uint8Array(await answer.arrayBuffer());
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  done({status: answer.status, type: answer.headers.get("Content-Type"), body: btoa(text)});
}).catch((error) => done({status: 0, type: "", body: "", error: String(error)}));
"""


def follow(driver, href):
    """The browser follows `href`: (status, content type, body bytes)."""
    driver.set_script_timeout(60)
    answer = driver.execute_async_script(FETCH, href)
    assert answer["status"], answer.get("error")
    return answer["status"], answer["type"], base64.b64decode(answer["body"])


def link(driver, css):
    """The href of the one link matching `css` inside the page's main part."""
    from selenium.webdriver.common.by import By

    found = driver.find_elements(By.CSS_SELECTOR, f"main {css}")
    assert len(found) == 1, (css, [a.get_attribute("href") for a in found])
    return found[0].get_attribute("href")


def navbar_entries(driver):
    from selenium.webdriver.common.by import By

    texts = {a.get_attribute("textContent").strip() for a in driver.find_elements(By.CSS_SELECTOR, "nav a")}
    return {name for name in ORGANISER_ENTRIES if name in texts}


@pytest.fixture
def roles(transactional_db, mbsz, bridge_club, make_user, make_person):
    """An approved club event, and one user of each kind the navbar tells apart."""
    from federation.models import Role
    from tournaments.models import Event

    event = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Menüs klubverseny",
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=timezone.localdate() + datetime.timedelta(days=30),
        status=Event.Status.APPROVED,
    )
    player = make_user("jatekos@example.hu")
    make_person(federation=mbsz, club=bridge_club, user=player)
    return {
        "event": event,
        "player": player,
        "director": make_user("vezeto@example.hu", kind=Role.DIRECTOR, event=event),
        "club admin": make_user("admin@bbe.hu", kind=Role.CLUB_ADMIN, club=bridge_club),
        "staff": make_user("staff@mbsz.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
    }


def test_navbar_entries_by_role(browser, live_server, roles):
    from selenium.webdriver.common.by import By

    walk = Walk(browser, live_server)
    walk.go(reverse("home"))
    assert navbar_entries(browser) == set()
    expected = {
        "player": set(),
        "director": {"Saját versenyeim"},
        "club admin": {"Saját versenyeim", "Új kiírás"},
        "staff": {"Saját versenyeim", "Új kiírás", "Jóváhagyásra vár"},
    }
    for who, entries in expected.items():
        walk.login(roles[who])
        walk.go(reverse("home"))
        # Logged in as this user (the login's answer arrived before the page was asked for).
        assert (
            browser.find_element(By.CSS_SELECTOR, "nav .nav-user").get_attribute("title") == roles[who].email
        )
        assert navbar_entries(browser) == entries, who
        # What the menu offers opens (not a 403) when clicked.
        for name in sorted(entries):
            target = browser.find_element(By.XPATH, f"//nav//a[normalize-space()='{name}']")
            href = target.get_attribute("href")
            walk.go(href.removeprefix(live_server.url))
            assert browser.current_url == href, (who, name)
            assert "Hozzáférés megtagadva" not in browser.title, (who, name)
            assert browser.find_element(By.TAG_NAME, "h1").text != "Hozzáférés megtagadva", (who, name)
            walk.go(reverse("home"))


def test_hungarian_403_404_and_the_appeals_button(browser, live_server, roles):
    from selenium.webdriver.common.by import By

    walk = Walk(browser, live_server)
    event = roles["event"]
    desk = reverse("appeals_event", args=[event.pk])

    walk.go("/nincs-ilyen-oldal/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Az oldal nem található"
    assert "Az oldal nem található" in browser.title
    assert browser.find_element(By.CSS_SELECTOR, "nav.navbar")  # the portal's page, not Django's bare one
    assert "Not Found" not in browser.page_source

    walk.login(roles["player"])
    walk.go(reverse("event_detail", args=[event.pk]))
    assert browser.find_element(By.TAG_NAME, "h1").text == event.title
    assert not browser.find_elements(By.CSS_SELECTOR, f"main a[href='{desk}']")
    buttons = browser.find_elements(By.CSS_SELECTOR, "main a, main button")
    assert "Óvások" not in {b.get_attribute("textContent").strip() for b in buttons}
    # The page the button would lead to is the Hungarian 403 page for this user.
    walk.go(desk)
    assert browser.find_element(By.TAG_NAME, "h1").text == "Hozzáférés megtagadva"
    assert "Nincs jogosultsága az oldal megnyitásához." in walk.text()
    assert browser.find_element(By.CSS_SELECTOR, "nav.navbar")
    assert "Forbidden" not in browser.page_source
    walk.go(reverse("approval_queue"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Hozzáférés megtagadva"

    walk.login(roles["director"])
    walk.go(reverse("event_detail", args=[event.pk]))
    button = browser.find_element(By.CSS_SELECTOR, f"main a[href='{desk}']")
    assert button.text == "Óvások"
    walk.go(desk)
    assert browser.find_element(By.TAG_NAME, "h1").text != "Hozzáférés megtagadva"
    assert "Forbidden" not in browser.page_source


def test_the_event_ics_link(browser, live_server, roles):
    event = roles["event"]
    walk = Walk(browser, live_server)
    walk.go(reverse("event_detail", args=[event.pk]))
    href = link(browser, f"a[href='{reverse('event_ics', args=[event.pk])}']")
    status, kind, body = follow(browser, href)
    assert status == 200 and kind.startswith("text/calendar"), (status, kind)
    text = body.decode("utf-8")
    assert text.startswith("BEGIN:VCALENDAR") and text.count("BEGIN:VEVENT") == 1
    assert "SUMMARY:Menüs klubverseny" in text


@pytest.fixture
def scored_event(transactional_db, mbsz, make_user):
    """A published 8-pair bridge session and its director."""
    from bridge.services import setup, upload_readers, uploads
    from demo import bridge_sample as sample
    from federation.models import Role
    from results.models import VersionedUpload

    start = timezone.now() - datetime.timedelta(hours=4)
    event = sample.event_with_pairs(mbsz, pairs=8, title="Dokumentumos páros", start=start)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    director = make_user("td-doc@example.hu", kind=Role.DIRECTOR, event=event)
    rows = sample.play(session, random.Random(11))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    setup.publish(session, director)
    return event, director


def test_results_pdf_renders_and_the_csv_is_for_hungarian_excel(browser, live_server, scored_event):
    import csv
    import io

    import pypdfium2

    event, director = scored_event
    walk = Walk(browser, live_server)

    # The bridge event's results page offers its PDF; the PDF opens and its first page is not blank.
    walk.go(reverse("bridge_event", args=[event.pk]))
    href = link(browser, f"a[href='{reverse('bridge_event_pdf', args=[event.pk])}']")
    status, kind, body = follow(browser, href)
    assert status == 200 and kind.startswith("application/pdf"), (status, kind)
    pdf = pypdfium2.PdfDocument(body)
    try:
        assert len(pdf) >= 1
        image = pdf[0].render(scale=1).to_pil().convert("L")
        low, high = image.getextrema()
        dark = sum(image.histogram()[:128])
        assert low < 128 < high and dark > 200, (low, high, dark)  # text drawn on the page
    finally:
        pdf.close()

    # The director's entry list offers a CSV: UTF-8 with a byte-order mark, ";" between the fields.
    walk.login(director)
    walk.go(reverse("manage_entries", args=[event.pk]))
    href = link(browser, f"a[href='{reverse('entry_list_csv', args=[event.pk])}']")
    status, kind, body = follow(browser, href)
    assert status == 200 and kind.startswith("text/csv"), (status, kind)
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))
    assert len(rows) == 1 + 8 and all(len(row) == 6 for row in rows), rows

    # Without a login the same link gives no list (the CSV is the organisers'): the login page instead.
    browser.delete_all_cookies()
    status, kind, body = follow(browser, href)
    assert not kind.startswith("text/csv") and "Dokumentumos" not in body.decode("utf-8", "replace")
