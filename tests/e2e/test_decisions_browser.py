"""Decisions survive a re-upload, in headless Chromium (issue #14): the director uploads a session, a pair
asks for a correction and the director countersigns it, an appeal decision is published (driven through the
services), then the director uploads the same file again: the page lists the correction and the ruling, the
director keeps them, and the public standings still show the ruling.

Runs with BROWSER=1 (Chromium and chromedriver installed, `selenium` in the virtualenv); skipped elsewhere.
SCREENSHOTS=<folder> keeps a picture of each step; the confirmation page is always shot at 390 and 1280 px
(into SCREENSHOTS, else var/screenshots/).
"""

import datetime
import os
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.e2e.test_appeal_browser import Walk, laid_out_session

pytestmark = [pytest.mark.e2e]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def prepared(transactional_db, mbsz, make_user):
    """A pairs session laid out (no results yet), its director, a 3+2 appeals committee, a player."""
    return laid_out_session(mbsz, make_user, "Rétegzett páros")


def publish_appeal(event, session, director, make_user, board_score, labels):
    """An appeal on `board_score`'s table: filed, heard, voted and published through the services."""
    from appeals.models import Intention
    from appeals.services import decision as appeal_decisions
    from appeals.services import filing, hearing, panel
    from bridge.engine.scoring.contract import board_vulnerability, contract_score, vulnerable_sides

    appellant = board_score.ns.pair.entry
    users = []
    for i, member in enumerate(appellant.members.order_by("position")):
        member.person.user = make_user(f"appellant{i}@example.hu")
        member.person.save()
        users.append(member.person.user)
    announced = session.announced
    now = timezone.now()
    Intention.objects.create(
        session=announced,
        entry=appellant,
        board_number=board_score.board,
        source="director",
        recorded_by=director,
        recorded_at=now - datetime.timedelta(minutes=10),
    )
    filing.end_session(announced, director, at=now - datetime.timedelta(minutes=5))
    table = dict(
        board_number=board_score.board, ns_pair=labels[board_score.ns_id], ew_pair=labels[board_score.ew_id]
    )
    appeal = filing.file_appeal(
        users[0],
        session=announced,
        entry=appellant,
        respondent_entry=board_score.ew.pair.entry,
        appellant_pair=labels[board_score.ns_id],
        director=director,
        ruling="Az eredmény áll.",
        request="7NTXX= Észak.",
        statement="Jogosulatlan információ.",
        **table,
    )
    filing.agree(appeal, users[1])
    filing.confirm_deposit(appeal, director)
    panel.form_panel(appeal, director)
    seated = [s.member.user for s in appeal.panel.all()]
    for speaker in ("director", "appellant", "respondent"):
        hearing.record_statement(appeal, seated[0], speaker=speaker, speaker_name=speaker, text="...")
    top = contract_score("7NTXX", "N", 13, *vulnerable_sides(board_vulnerability(board_score.board)))
    proposal = appeal_decisions.propose(
        appeal, seated[0], outcome="changed", text="Észak 7NTXX=.", ns_score=top, **table
    )
    for user in seated[1:]:
        appeal_decisions.vote(proposal, user, True)
    appeal_decisions.publish(proposal, seated[0])
    return appeal, top


def login(walk, user):
    """Log in and wait for the answer (a page opened before it arrives would still be anonymous)."""
    from selenium.webdriver.support.ui import WebDriverWait

    walk.login(user)
    login_url = reverse("login")
    WebDriverWait(walk.driver, 15).until(lambda d: login_url not in d.current_url)


def shoot(driver, name):
    folder = Path(os.environ.get("SCREENSHOTS") or ROOT / "var" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    for width in (390, 1280):
        driver.set_window_size(width, 1600)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, min(max(height, 800), 4000))
        driver.save_screenshot(str(folder / f"{name}-{width}.png"))
    driver.set_window_size(1280, 1600)


def test_decisions_survive_the_same_file_uploaded_again(browser, live_server, prepared, make_user, tmp_path):
    from selenium.webdriver.common.by import By

    from bridge.models import BoardScore, CorrectionRequest, ResultVersion, SessionPair, SessionStanding
    from bridge.services import versions
    from demo import bridge_sample as sample

    event, session, director, members, rows = prepared
    labels = sample.pair_labels(session)
    pbn = tmp_path / "fordulo.pbn"
    pbn.write_text(sample.pbn_text(session, rows))
    walk = Walk(browser, live_server)

    # 1. the director uploads the session and publishes it
    login(walk, director)
    walk.go(reverse("bridge_upload", args=[session.pk]))
    form = walk.fill("main form[enctype]", {"format": "pbn"})
    form.find_element(By.NAME, "file").send_keys(str(pbn))
    walk.click("main form[enctype] button")
    assert ResultVersion.objects.filter(session=session).count() == 1
    walk.go(reverse("bridge_session", args=[session.pk]))
    walk.click(f"form[action='{reverse('bridge_publish', args=[session.pk])}'] button")
    session.refresh_from_db()
    assert session.published_at is not None

    # 2. a pair asks for a correction, the director countersigns it on the corrections page
    played = next(r for r in rows if r["contract"] not in ("", "Pass") and 0 < r["tricks"] < 13)
    seat = SessionPair.objects.get(pk=played["ns_id"])
    player = make_user("jatekos@example.hu")
    seat.pair.player1.user = player
    seat.pair.player1.save()
    login(walk, player)
    walk.go(reverse("bridge_correction_request", args=[session.pk]))
    walk.fill(
        "main form",
        {
            "board": played["board"],
            "contract": played["contract"],
            "declarer": played["declarer"],
            "result": played["tricks"] + 1,
            "reason": "Eggyel több ütést vittünk.",
        },
    )
    walk.click("main form button")
    assert CorrectionRequest.objects.filter(session=session).exists(), walk.text()
    login(walk, director)
    walk.go(reverse("bridge_corrections", args=[event.pk]))
    walk.click("main form button[name=approve]")
    corrected = versions.latest_version(session)
    assert corrected.source == "correction"

    # 3. an appeal decision on another board is published (through the services)
    ruled_table = (
        BoardScore.objects.filter(session=session)
        .exclude(board=played["board"])
        .exclude(contract="")
        .select_related("ns__pair__entry", "ew__pair__entry")
        .order_by("board", "ns__number")
        .first()
    )
    appeal, top = publish_appeal(event, session, director, make_user, ruled_table, labels)
    ruling = versions.latest_version(session)
    assert ruling.source == "appeal"
    after_ruling = list(
        SessionStanding.objects.filter(session=session).values_list("pair_id", "total", "place")
    )
    assert BoardScore.objects.get(session=session, board=ruled_table.board, ns=ruled_table.ns).score == top

    # 4. the same file again: the director sees both decisions, keeps them
    walk.go(reverse("bridge_upload", args=[session.pk]))
    form = walk.fill("main form[enctype]", {"format": "pbn"})
    form.find_element(By.NAME, "file").send_keys(str(pbn))
    walk.click("main form[enctype] button")
    assert browser.current_url.endswith(reverse("bridge_upload_confirm", args=[session.pk]))
    assert ResultVersion.objects.filter(session=session).count() == 3  # nothing stored yet
    items = browser.find_elements(By.CSS_SELECTOR, ".decision-item")
    assert [i.get_attribute("id") for i in items] == [f"decision-{corrected.pk}", f"decision-{ruling.pk}"]
    text = walk.text()
    assert appeal.reference in text and "Eggyel több ütést vittünk." in text
    assert f"{top:+d}" in text  # the ruling's value next to the file's
    for item in items:
        assert item.find_element(By.CSS_SELECTOR, "input[value=keep]").is_selected()
    shoot(browser, "decisions-confirm")
    walk.click("#confirm-decisions")
    assert browser.current_url.endswith(reverse("bridge_session", args=[session.pk]))

    latest = versions.latest_version(session)
    assert latest.source == "pbn" and latest.number == 4
    assert sorted(latest.decisions.values_list("decision_id", "action")) == sorted(
        [(corrected.pk, "kept"), (ruling.pk, "kept")]
    )
    assert sorted(
        SessionStanding.objects.filter(session=session).values_list("pair_id", "total", "place")
    ) == sorted(after_ruling)

    # the history says what version 4 carried, with the diff of each version
    walk.go(reverse("bridge_versions", args=[session.pk]))
    history = walk.text()
    assert appeal.reference in history and "Eggyel több ütést vittünk." in history
    assert len(browser.find_elements(By.CSS_SELECTOR, "#version-4 li")) == 2
    shoot(browser, "version-history")

    # 5. the public standings still show the ruling
    browser.delete_all_cookies()
    walk.go(reverse("bridge_session", args=[session.pk]))
    walk.snap("public-standings")
    shown = BoardScore.objects.get(session=session, board=ruled_table.board, ns=ruled_table.ns)
    assert shown.score == top
    walk.go(reverse("bridge_frequencies", args=[session.pk]) + f"?board={ruled_table.board}")
    assert str(top) in walk.text()
