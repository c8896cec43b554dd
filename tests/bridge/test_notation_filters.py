"""Bridge notation and numbers in the page's language: É/K/D/Ny, SZA and decimal commas on Hungarian pages,
N/E/S/W, NT and decimal points on English ones; the pages themselves use the filters."""

import datetime
import random
from decimal import Decimal

import pytest
from django.conf import settings
from django.template import engines
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import SessionStanding
from bridge.services import notation, setup, upload_readers, uploads
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload


def render(source: str, language: str, **context) -> str:
    with translation.override(language):
        return engines["django"].from_string("{% load bridge_notation numbers %}" + source).render(context)


@pytest.mark.parametrize(
    "source, hungarian, english",
    [
        ('{{ "4S"|contract:"E" }}', "4♠ K", "4♠ E"),
        ('{{ "3NT"|contract:"S" }}', "3SZA D", "3NT S"),
        ('{{ "3NTXX"|contract:"W" }}', "3SZAXX Ny", "3NTXX W"),
        ('{{ "4S E ="|contract }}', "4♠ K =", "4♠ E ="),
        ('{{ "3NT S +1"|contract }}', "3SZA D +1", "3NT S +1"),
        ('{{ "Pass"|contract }}', "Passz", "Pass"),
        ('{{ "3NTE="|par }}', "3SZA K =", "3NT E ="),
        ('{{ "4SXN-1, 5DW+1"|par }}', "4♠X É -1, 5<span", "4♠X N -1, 5<span"),
        ('{{ "N"|seat }}{{ "E"|seat }}{{ "S"|seat }}{{ "W"|seat }}', "ÉKDNy", "NESW"),
        ('{{ "NS"|side }} {{ "EW"|side }}', "É-D K-Ny", "N-S E-W"),
        ('{{ "NT"|strain }}', "SZA", "NT"),
        ('{{ "ST"|lead }}', "♠10", "♠10"),
        ("{{ value|dec:2 }}", "7,00", "7.00"),
        ("{{ text|dec:2 }}", "58,33", "58.33"),
        ("{{ value|pct }}", "7,00%", "7.00%"),
        ("{{ text|pct:1 }}", "58,3%", "58.3%"),
        ("[{{ none|dec:2 }}][{{ none|pct }}][{{ empty|pct }}]", "[][][]", "[][][]"),
        ("{{ award|dec:2 }}", "A+", "A+"),
    ],
)
def test_filters_in_both_languages(source, hungarian, english):
    context = {"value": Decimal("7"), "text": "58.333", "none": None, "empty": "", "award": "A+"}
    assert hungarian in render(source, "hu", **context)
    assert english in render(source, "en", **context)


def test_red_suits_are_marked_and_unknown_text_is_escaped():
    shown = render('{{ "4HX"|contract:"N" }} {{ odd|contract }}', "hu", odd="<b>4Z</b>")
    assert '4<span class="suit-red">♥</span>X É' in shown
    assert "&lt;b&gt;4Z&lt;/b&gt;" in shown and "<b>" not in shown


def test_the_service_follows_the_active_language():
    with translation.override("hu"):
        assert str(notation.contract("7NT", "N")) == "7SZA É"
    with translation.override("en"):
        assert str(notation.contract("7NT", "N")) == "7NT N"


@pytest.fixture
def published(mbsz, make_user):
    start = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
    event = sample.event_with_pairs(mbsz, pairs=8, title="Jelölés", start=start)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    director = make_user("td-notation@example.hu", kind=Role.DIRECTOR, event=event)
    rows = sample.play(session, random.Random(5))
    for row in rows:  # every contract in no trump, so the page must say SZA / NT
        if row.get("contract") and row["contract"] != "Pass":
            row["contract"] = row["contract"][0] + "NT"
            row["score"] = None
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    recompute_event(event.pk)
    setup.publish(session, director)
    return session


@pytest.mark.django_db
def test_frequency_sheet_and_score_card_in_hungarian_and_english(client, published):
    session = published
    pair_id = SessionStanding.objects.filter(session=session).values_list("pair_id", flat=True).first()
    pages = [
        reverse("bridge_frequencies", args=[session.pk]),
        reverse("bridge_score_card", args=[session.pk, pair_id]),
        reverse("bridge_session", args=[session.pk]),
    ]
    for url in pages:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
        hungarian = client.get(url).content.decode()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        english = client.get(url).content.decode()
        assert '<html lang="en"' in english
        assert "table-responsive" in hungarian, url
        assert ",00" in hungarian or ",50" in hungarian, url
        assert not any(f"{n}.{d}0<" in hungarian for n in range(10) for d in range(10)), url
        if url != pages[2]:
            assert "SZA" in hungarian and "NT" not in hungarian.split("<main", 1)[-1], url
            assert "NT" in english and "SZA" not in english, url
