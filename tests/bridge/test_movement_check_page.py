"""VSz 24 movement check on the director's guide-card page: findings translated, director only."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from bridge.services import setup
from demo import bridge_sample as sample
from federation.models import Role

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))

pytestmark = pytest.mark.django_db


def _session(mbsz, pairs, movement):
    event = sample.event_with_pairs(mbsz, pairs=pairs, title=f"VSz 24 {pairs}", start=START)
    session = setup.create_session(
        event, movement=movement, pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    return event, session


def test_two_table_mitchell_is_warned_in_hungarian_and_english(client, mbsz, make_user):
    event, session = _session(mbsz, 4, "mitchell")
    director = make_user("vsz24@example.hu", kind=Role.DIRECTOR, event=event)
    client.force_login(director)
    url = reverse("bridge_guide_cards", args=[session.pk])
    page = client.get(url).content.decode()
    assert 'data-finding="two_table_mitchell"' in page
    assert 'data-finding="few_opponents"' in page and 'data-finding="few_boards"' in page
    assert "33,3" in page  # 1 of the 3 other pairs, with the Hungarian decimal comma
    client.cookies["django_language"] = "en"
    page = client.get(url).content.decode()
    assert "33.3" in page and "VSz 24" in page


def test_a_howell_for_eight_pairs_has_no_findings(client, mbsz, make_user):
    event, session = _session(mbsz, 8, "howell")
    client.force_login(make_user("vsz24h@example.hu", kind=Role.DIRECTOR, event=event))
    page = client.get(reverse("bridge_guide_cards", args=[session.pk])).content.decode()
    assert "data-finding" not in page


def test_only_the_director_sees_the_check(client, mbsz, make_user):
    event, session = _session(mbsz, 4, "mitchell")
    client.force_login(make_user("player24@example.hu"))
    response = client.get(reverse("bridge_guide_cards", args=[session.pk]))
    assert response.status_code in (403, 404)


# --- A movement the uploaded results define (VSz 24 "when a movement is generated or uploaded") ----------

PLAYED = "board;ns;ew;contract;declarer;lead;result;score\n1;1;2;3NT;N;;9;\n1;3;4;4S;S;;10;\n2;2;3;2H;E;;8;\n2;4;1;;;;;-110\n"


def test_the_uploaded_movement_is_checked_too():
    from bridge.engine.movements import check_played

    # Four pairs, two boards each played twice: pair 1 met 2 and 4 (2 of 3 = 66.7%), everyone both boards.
    rows = [(1, 1, 2), (1, 3, 4), (2, 2, 3), (2, 4, 1)]
    assert check_played(rows) == []
    # Board 3 played once, by 1 and 3: unequal plays; pairs 2 and 4 played 2 of the 3 boards (66.7% < 80%).
    findings = {f.code: f.params for f in check_played([*rows, (3, 1, 3)])}
    assert findings["unequal_plays"] == {"fewest": 1, "most": 2, "sets": [3]}
    assert findings["few_boards"] == {"pairs": [2, 4], "lowest": 66.7, "minimum": 80}
    # A pair that plays a board twice breaks the scoring.
    assert "repeated_sets" in {f.code for f in check_played([*rows, (1, 1, 3)])}


def test_the_page_checks_an_uploaded_movement(client, mbsz, make_user):
    from bridge.services import upload_readers, uploads
    from results.models import VersionedUpload

    event = sample.event_with_pairs(mbsz, pairs=4, title="Feltöltött mozgás", start=START)
    director = make_user("vsz24u@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(event, movement="uploaded", announced=event.sessions.first())
    text = PLAYED + "3;1;3;1NT;N;;7;\n"
    uploads.upload(session, upload_readers.parse_csv(text), source=VersionedUpload.Source.CSV, user=director)
    client.force_login(director)
    page = client.get(reverse("bridge_guide_cards", args=[session.pk])).content.decode()
    assert 'data-finding="unequal_plays"' in page and 'data-finding="few_boards"' in page
    assert "66,7" in page
