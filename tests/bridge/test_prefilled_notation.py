"""Issue #20: the traveller's and the correction form's pre-filled fields are written in the page's notation
(É/K/D/Ny, suit symbols, SZA on Hungarian pages; N/E/S/W and NT on English ones), and what they hold is
read back by the save as the same result."""

import datetime
import html
import random
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from freezegun import freeze_time

from bridge.engine.csv_upload import result_of
from bridge.models import BoardResult, SessionPair
from bridge.services import notation, setup, upload_readers, uploads, versions
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload


@pytest.fixture(autouse=True)
def _urls_loaded_before_freezing():
    reverse("results")


START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(mbsz, make_user):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Előtöltött", start=START)
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(5))
    csv = upload_readers.parse_csv(sample.csv_text(session, rows))
    uploads.upload(session, csv, source=VersionedUpload.Source.CSV, user=director)
    return session, director


def _values(page, field):
    return [html.unescape(v) for v in re.findall(rf'name="[\w-]*{field}"[^>]*value="([^"]*)"', page)]


def _get(client, url, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(url).content.decode()


def _played_board(session):
    """A board whose rows include a no-trump and a suit contract, so both spellings are seen."""
    rows = BoardResult.objects.filter(version=versions.latest_version(session)).exclude(contract="")
    for board in sorted({r.board for r in rows}):
        contracts = [r.contract for r in rows if r.board == board]
        if any("NT" in c for c in contracts) and any("NT" not in c for c in contracts):
            return board
    return rows.first().board


def test_the_traveller_is_prefilled_in_hungarian_notation(client, session):
    session, director = session
    client.force_login(director)
    board = _played_board(session)
    url = reverse("bridge_traveller", args=[session.pk, board])
    hu = _get(client, url, "hu")
    contracts, declarers, leads = _values(hu, "contract"), _values(hu, "declarer"), _values(hu, "lead")
    assert contracts and all(re.fullmatch(r"[1-7](SZA|[♠♥♦♣])X{0,2}|Passz", c) for c in contracts), contracts
    assert declarers and set(declarers) <= {"É", "K", "D", "Ny", ""}
    assert all(not lead or lead[0] in "♠♥♦♣" for lead in leads)
    en = _get(client, url, "en")
    assert all(re.fullmatch(r"[1-7](NT|[SHDC])X{0,2}|Pass", c) for c in _values(en, "contract"))
    assert set(_values(en, "declarer")) <= {"N", "E", "S", "W", ""}


def test_the_hungarian_values_read_back_as_the_stored_result(session):
    session, _director = session
    for row in BoardResult.objects.filter(version=versions.latest_version(session)).exclude(contract="")[:20]:
        with translation.override("hu"):
            values = (
                notation.contract_value(row.contract),
                notation.seat_value(row.declarer),
                notation.lead_value(row.lead),
            )
        result = "" if row.tricks is None else str(row.tricks)
        contract, declarer, lead, tricks, score, _art = result_of(row.board, "1", "2", *values, result, "")
        assert (contract, declarer, lead, tricks) == (row.contract, row.declarer, row.lead, row.tricks)


def test_the_correction_form_starts_from_the_recorded_result(client, session, make_user):
    session, director = session
    published = START + datetime.timedelta(hours=4)
    with freeze_time(published):
        setup.publish(session, director)
    seat = SessionPair.objects.get(section__session=session, number=1)
    user = make_user("player@example.hu")
    seat.pair.player1.user = user
    seat.pair.player1.save()
    row = BoardResult.objects.filter(version=versions.latest_version(session), ns=seat).exclude(contract="")
    row = row.first()
    client.force_login(user)
    url = reverse("bridge_correction_request", args=[session.pk]) + f"?board={row.board}"
    with freeze_time(published + datetime.timedelta(minutes=5)):
        hu = _get(client, url, "hu")
        en = _get(client, url, "en")
    with translation.override("hu"):
        assert _values(hu, "contract") == [notation.contract_value(row.contract)]
        assert _values(hu, "declarer") == [notation.seat_value(row.declarer)]
    assert _values(en, "contract") == [row.contract]


def test_the_notation_values():
    with translation.override("hu"):
        assert notation.contract_value("3NTX") == "3SZAX"
        assert notation.contract_value("4H") == "4♥"
        assert notation.contract_value("Pass") == "Passz"
        assert notation.seat_value("W") == "Ny"
        assert notation.lead_value("DT") == "♦10"
    with translation.override("en"):
        assert notation.contract_value("3NTX") == "3NTX" and notation.lead_value("DT") == "DT"
