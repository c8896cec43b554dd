"""The appeal form's director picker: the event's directors suggested by name, a typed name that is exactly
one of them picks him, any other name stays free text; nobody outside the event's directors is offered."""

import pytest

from appeals.forms import FileAppealForm
from federation.models import Role
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def _form(world, **data):
    base = {"session": "", "board_number": 7, "ruling": "r", "request": "q", "statement": "s"}
    return FileAppealForm({**base, **data}, event=world.event, entry=world.pairs[0])


@pytest.fixture
def named_director(world):
    world.director.first_name, world.director.last_name = "Lajos", "Rehó"
    world.director.save()
    return world.director


def test_a_typed_name_of_the_events_director_picks_him(world, named_director):
    form = _form(world, director_name="reho lajos")
    form.is_valid()
    assert form.cleaned_data["director"] == named_director


def test_another_name_stays_free_text(world, named_director, make_user):
    stranger = make_user("other.td@example.hu")
    stranger.first_name, stranger.last_name = "Béla", "Kiss"
    stranger.save()
    form = _form(world, director_name="Kiss Béla")
    form.is_valid()
    assert form.cleaned_data["director"] is None and form.cleaned_data["director_name"] == "Kiss Béla"


def test_only_the_events_directors_are_suggested(world, named_director, make_user):
    other_event = Event.objects.create(
        federation=world.event.federation, title="Másik", format="pairs", start_date=world.event.start_date
    )
    make_user("other.td@example.hu", kind=Role.DIRECTOR, event=other_event)
    html = str(_form(world)["director_name"])
    assert 'list="appeal-directors"' in html and named_director.get_full_name() in html
    assert "other.td@example.hu" not in html
