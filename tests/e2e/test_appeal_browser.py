"""The whole appeal in headless Chromium: file, the partner agrees, deposit, panel, hearing, decision, votes,
publication, and the bridge standings change.

Runs with BROWSER=1 (Chromium and chromedriver installed, `selenium` in the virtualenv); skipped elsewhere.
SCREENSHOTS=<folder> keeps a picture of each step.
"""

import datetime
import os
import random
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

pytestmark = [pytest.mark.e2e]

PASSWORD = "jelszo-12345"


class Walk:
    def __init__(self, driver, live_server):
        self.driver, self.base, self.shots = driver, live_server.url, os.environ.get("SCREENSHOTS")
        self.step = 0

    def go(self, path):
        self.driver.get(self.base + path)

    def snap(self, name):
        if self.shots:
            self.step += 1
            Path(self.shots).mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(Path(self.shots) / f"{self.step:02d}-{name}.png"))

    def login(self, user):
        from selenium.webdriver.common.by import By

        self.driver.delete_all_cookies()
        self.go(reverse("login"))
        self.driver.find_element(By.NAME, "username").send_keys(user.username)
        self.driver.find_element(By.NAME, "password").send_keys(PASSWORD)
        # Wait for the login's answer: a page opened before it arrives races the POST (and may be
        # served to the previous user or to nobody).
        self.click("main form button[type=submit], main form input[type=submit]")

    def fill(self, form_css, values):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        form = self.driver.find_element(By.CSS_SELECTOR, form_css)
        for name, value in values.items():
            field = form.find_element(By.NAME, name)
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", field)
            if field.tag_name == "select":
                Select(field).select_by_value(str(value))
            elif field.get_attribute("type") == "radio":
                form.find_element(By.CSS_SELECTOR, f"input[name={name}][value='{value}']").click()
            else:
                field.clear()
                field.send_keys(str(value))
        return form

    def click(self, css):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions
        from selenium.webdriver.support.ui import WebDriverWait

        page = self.driver.find_element(By.TAG_NAME, "main")
        element = self.driver.find_element(By.CSS_SELECTOR, css)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()
        # Every button here posts a form: wait for the next page before reading the database. While the old
        # page is being torn down Chromium may answer "Node ... does not belong to the document" instead of a
        # stale-element error: that is the same news, so ask again.
        from selenium.common.exceptions import WebDriverException

        WebDriverWait(self.driver, 15, ignored_exceptions=(WebDriverException,)).until(
            expected_conditions.staleness_of(page)
        )

    def text(self):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.TAG_NAME, "main").text


def laid_out_session(mbsz, make_user, title):
    """A 12-pair club event with its director and a 3+2 appeals committee, one Mitchell session laid out and
    its results played (not uploaded): (event, session, director, members, rows)."""
    from appeals.services import committee
    from bridge.services import setup
    from demo import bridge_sample as sample
    from federation.models import Role

    start = timezone.now() - datetime.timedelta(hours=4)
    event = sample.event_with_pairs(mbsz, pairs=12, title=title, start=start)
    event.event_class, event.masterpoint_multiplier, event.appeal_deposit = "club", "1.00", 2000
    event.save()
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    members = [
        committee.add_member(event, make_user(f"ob{i}@example.hu"), is_alternate=i >= 3) for i in range(5)
    ]
    session = setup.create_session(
        event,
        movement="mitchell",
        pairs=setup.pairs_from_entries(event),
        announced=event.sessions.first(),
        boards_per_round=3,
    )
    return event, session, director, members, sample.play(session, random.Random(7))


@pytest.fixture
def scored(transactional_db, mbsz, make_user):
    """A scored, published bridge pairs session with a director and a 3+2 appeals committee."""
    from bridge.services import setup, upload_readers, uploads
    from demo import bridge_sample as sample

    event, session, director, members, rows = laid_out_session(mbsz, make_user, "Böngészős páros")
    uploads.upload(
        session, upload_readers.parse_pbn(sample.pbn_text(session, rows)), source="pbn", user=director
    )
    setup.publish(session, director)
    return event, session, director, members


def test_the_appeal_in_the_browser(browser, live_server, scored, make_user):
    from appeals.models import Appeal, Intention
    from appeals.services import filing
    from bridge.engine.scoring.contract import board_vulnerability, contract_score, vulnerable_sides
    from bridge.models import BoardScore, SessionStanding
    from demo import bridge_sample as sample

    event, session, director, members = scored
    labels = sample.pair_labels(session)
    leader = SessionStanding.objects.filter(session=session, field="EW").order_by("order").first()
    best = BoardScore.objects.filter(session=session, ew=leader.pair).order_by("-mp_ew", "board").first()
    appellant = best.ns.pair.entry
    players = []
    for i, member in enumerate(appellant.members.order_by("position")):
        member.person.user = make_user(f"ns{i}@example.hu")
        member.person.save()
        players.append(member.person.user)
    announced = session.announced
    now = timezone.now()
    Intention.objects.create(
        session=announced,
        entry=appellant,
        board_number=best.board,
        source="director",
        recorded_by=director,
        recorded_at=now - datetime.timedelta(minutes=10),
    )
    filing.end_session(announced, director, at=now - datetime.timedelta(minutes=5))

    walk = Walk(browser, live_server)
    walk.login(players[0])
    walk.go(reverse("appeal_file", args=[event.pk]))
    walk.fill(
        "main form.card",
        {
            "session": announced.pk,
            "board_number": best.board,
            "ns_pair": labels[best.ns_id],
            "ew_pair": labels[leader.pair_id],
            "appellant_pair": labels[best.ns_id],
            "respondent_entry": leader.pair.pair.entry_id,
            "director": director.pk,
            "ruling": "Az eredmény áll.",
            "request": "7NTXX= Észak.",
            "statement": "Jogosulatlan információ.",
        },
    )
    walk.snap("filing-form")
    walk.click("#file-appeal")
    appeal = Appeal.objects.get()
    assert browser.current_url.endswith(reverse("appeal_detail", args=[appeal.pk]))
    walk.snap("filed")

    walk.login(players[1])
    walk.go(reverse("appeal_detail", args=[appeal.pk]))
    walk.snap("partner-asked")
    walk.click("#agree")

    walk.login(director)
    walk.go(reverse("appeal_detail", args=[appeal.pk]))
    walk.click("#confirm-deposit")
    walk.click("#form-panel")
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.HEARING
    walk.snap("panel-seated")

    seated = [s.member.user for s in appeal.panel.order_by("pk")]
    walk.login(seated[0])
    for speaker in ("director", "appellant", "respondent"):
        walk.go(reverse("appeal_detail", args=[appeal.pk]))
        walk.fill(
            f"form[action='{reverse('appeal_statement', args=[appeal.pk])}']",
            {"speaker": speaker, "speaker_name": speaker, "text": f"{speaker}: a meghallgatás jegyzete."},
        )
        walk.click("#add-statement")
    top = contract_score("7NTXX", "N", 13, *vulnerable_sides(board_vulnerability(best.board)))
    walk.fill(
        f"form[action='{reverse('appeal_propose', args=[appeal.pk])}']",
        {
            "outcome": "changed",
            "text": "Észak 7NTXX=; a K-Ny pár 100% büntetést kap.",
            "board_number": best.board,
            "ns_pair": labels[best.ns_id],
            "ew_pair": labels[leader.pair_id],
            "ns_score": top,
            "penalty_pair": labels[leader.pair_id],
            "penalty_percent": 100,
        },
    )
    walk.snap("hearing")
    walk.click("#propose")
    decision = appeal.decisions.get()
    for user in seated[1:]:
        walk.login(user)
        walk.go(reverse("appeal_detail", args=[appeal.pk]))
        walk.fill(f"form[action='{reverse('appeal_vote', args=[appeal.pk, decision.pk])}']", {"agrees": "1"})
        walk.click("#vote")
    walk.snap("voted")
    walk.click("#publish")
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.DECIDED
    walk.snap("published")

    moved = SessionStanding.objects.get(session=session, pair=leader.pair)
    assert moved.total < leader.total and not moved.place.startswith("1")
    browser.delete_all_cookies()
    walk.go(reverse("appeal_detail", args=[appeal.pk]))
    assert "7NTXX" in walk.text()
    walk.snap("public-decision")
    walk.go(reverse("bridge_session", args=[session.pk]))
    walk.snap("standings-after")
