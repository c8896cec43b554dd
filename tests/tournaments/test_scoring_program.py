"""Issue #21 (VSz 26): the announcement names the scoring program; a masterpoint event may name only the portal
or a program the federation accepted by its program test, and the form suggests exactly those."""

import datetime
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse

from bridge.models import AcceptedProgram
from federation.models import Federation, Role
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _event(federation, club, **fields):
    return Event(
        federation=federation,
        club=club,
        title="Őszi párosverseny",
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=datetime.date(2026, 12, 12),
        **fields,
    )


def _accept(federation, program, make_user):
    staff = make_user(
        f"staff-{federation.code}@example.hu", kind=Role.FEDERATION_STAFF, federation=federation
    )
    return AcceptedProgram.objects.create(federation=federation, program=program, accepted_by=staff)


def test_a_masterpoint_event_may_name_only_an_accepted_program(mbsz, bridge_club, make_user):
    _accept(mbsz, "OtherScore 4.2", make_user)
    other = Federation.objects.create(code="x", name="Másik", short_name="X", game=Federation.BRIDGE)
    _accept(other, "ElseWhere 1.0", make_user)
    points = {"masterpoint_multiplier": Decimal("1.00")}
    _event(mbsz, bridge_club, scoring_program="OtherScore 4.2", **points).full_clean()
    _event(mbsz, bridge_club, scoring_program="", **points).full_clean()  # the portal scores it
    _event(mbsz, bridge_club, scoring_program="Versenyportál", **points).full_clean()
    with pytest.raises(ValidationError) as refused:
        _event(mbsz, bridge_club, scoring_program="ElseWhere 1.0", **points).full_clean()
    message = refused.value.message_dict["scoring_program"][0]
    assert "VSz 26" in message and "ElseWhere 1.0" in message and "OtherScore 4.2" in message
    # Without masterpoints the program is the organiser's choice.
    _event(mbsz, bridge_club, scoring_program="ElseWhere 1.0").full_clean()


def test_the_form_suggests_the_portal_and_the_federations_accepted_programs(
    english, mbsz, bridge_club, make_user
):
    _accept(mbsz, "OtherScore 4.2", make_user)
    other = Federation.objects.create(code="x", name="Másik", short_name="X", game=Federation.BRIDGE)
    _accept(other, "ElseWhere 1.0", make_user)
    english.force_login(make_user("bridzs@example.hu", kind=Role.CLUB_ADMIN, club=bridge_club))
    page = english.get(reverse("event_create")).content.decode()
    datalist = page.split('<datalist id="scoring-programs">')[1].split("</datalist>")[0]
    assert 'value="Versenyportál"' in datalist and 'value="OtherScore 4.2"' in datalist
    assert "ElseWhere" not in datalist
    assert 'name="scoring_program"' in page and 'list="scoring-programs"' in page


def test_the_event_page_names_the_program(english, mbsz, bridge_club, make_user):
    _accept(mbsz, "OtherScore 4.2", make_user)
    event = _event(
        mbsz,
        bridge_club,
        scoring_program="OtherScore 4.2",
        status=Event.Status.APPROVED,
        masterpoint_multiplier=1,
    )
    event.save()
    portal = _event(mbsz, bridge_club, status=Event.Status.APPROVED)
    portal.save()
    page = english.get(reverse("event_detail", args=[event.pk])).content.decode()
    assert 'id="scoring-program">OtherScore 4.2<' in page
    page = english.get(reverse("event_detail", args=[portal.pk])).content.decode()
    assert 'id="scoring-program">Versenyportál<' in page
