"""In the browser at a phone's 390 px: the player page (/people/<id>/) of a demo player with results,
masterpoints and charts, as a visitor sees it and as the player sees his own "Saját oldal" (/me/): no
sideways scroll, the events played linked to their results, the private sections only for him. Runs with
BROWSER=1; SCREENSHOTS=<dir> keeps the screenshots."""

import io
import os
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.models import Count
from django.urls import reverse

from .test_appeal_browser import Walk

pytestmark = [pytest.mark.e2e]
WIDTH = 390


@pytest.fixture
def phone(browser):
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": 844, "deviceScaleFactor": 1, "mobile": True},
    )
    return browser


@pytest.fixture
def demo_player(transactional_db, make_user):
    """The seeded demo's player with the most masterpoint awards, given an account."""
    from federation.models import Person

    call_command("seed_demo", stdout=io.StringIO())
    person = (
        Person.objects.filter(user__isnull=True)
        .annotate(awards=Count("masterpoint_awards"))
        .order_by("-awards", "pk")
        .first()
    )
    person.user = make_user("sajat-oldal@example.hu")
    person.save()
    return person


def _fits(driver) -> bool:
    scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    return scroll <= inner


def _shot(driver, name, tmp_path):
    folder = Path(os.environ.get("SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    # The whole page, not just the first screen: the height the page asks for.
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": min(height, 6000), "deviceScaleFactor": 1, "mobile": True},
    )
    driver.save_screenshot(str(folder / f"{name}.png"))


def test_the_player_page_at_390_px(phone, live_server, demo_player, tmp_path):
    from selenium.webdriver.common.by import By

    walk = Walk(phone, live_server)
    walk.go(reverse("person_detail", args=[demo_player.pk]))
    assert phone.find_element(By.CSS_SELECTOR, "h1").text.startswith(str(demo_player))
    played = phone.find_elements(By.CSS_SELECTOR, "#played tbody tr")
    assert played, "the demo player has played events"
    assert phone.find_elements(By.CSS_SELECTOR, "#history-charts svg")
    assert not phone.find_elements(By.ID, "licences")  # the private part is his and the staff's only
    assert _fits(phone)
    _shot(phone, "person-390", tmp_path)

    # An event played links to its results page.
    link = phone.find_element(By.CSS_SELECTOR, "#played tbody tr a")
    title = link.text
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    link.click()
    assert title in phone.find_element(By.CSS_SELECTOR, "h1").text
    assert not phone.current_url.endswith("#")


def test_my_page_at_390_px(phone, live_server, demo_player, tmp_path):
    from selenium.webdriver.common.by import By

    walk = Walk(phone, live_server)
    walk.login(demo_player.user)
    walk.go(reverse("my_page"))
    assert phone.current_url.endswith(reverse("person_detail", args=[demo_player.pk]))
    for section in ("open-entries", "fees", "licences", "played", "masterpoints", "qualifications"):
        assert phone.find_element(By.ID, section).is_displayed(), section
    assert _fits(phone)
    _shot(phone, "my-page-390", tmp_path)
