"""Issue #20: the ulti draw's notes are the engine's codes with the players' names (never their "p<id>"),
translated when the round page shows them."""

from types import SimpleNamespace

from django.utils import translation

from federation.engine.notes import Note, Ref, render
from ulti.engine.pairing.swiss import (
    BYE,
    NO_REPEAT_FREE,
    PULL_AVOID,
    PULLED_UP,
    REPEAT,
    SEEDED,
    SEEDING_NAMES,
    Player,
    pair_round,
)
from ulti.services.draw import _notes
from ulti.views.notes import describe


def field(n):
    return [Player(id=f"p{100 + i}", points=100 - i) for i in range(1, n + 1)]


def people(n):
    return {
        f"p{100 + i}": SimpleNamespace(number=i, person=f"Játékos {chr(64 + i)}") for i in range(1, n + 1)
    }


def test_the_engine_gives_codes_with_player_references():
    pairing = pair_round(field(6), [("p101", "p102")], 2)
    (note,) = pairing.tables[0].notes
    assert note.msgid == PULLED_UP and note.params["player"] == Ref("p104")
    assert note.params["reason"].msgid == PULL_AVOID
    assert note == "p104 pulled up from place 4 to avoid a repeat meeting (p101 and p102 have met)"


def test_the_stored_notes_carry_names_and_render_in_the_readers_language():
    pairing = pair_round(field(7), [("p101", "p102")], 2)
    notes = _notes(pairing, people(7), 2)
    engine = [n for n in notes if n["kind"] == "engine"]
    assert engine and all("p10" not in str(n) for n in notes)
    bye = next(n for n in engine if n["msgid"] == BYE)
    assert bye["params"] == {"player": "7. Játékos G", "place": 7}
    pulled = next(n for n in engine if n["msgid"] == PULLED_UP)
    assert pulled["params"]["player"] == "4. Játékos D"
    assert pulled["params"]["reason"]["params"] == {"a": "1. Játékos A", "b": "2. Játékos B"}
    with translation.override("en"):
        shown = describe(pulled)
    assert shown == {
        "text": "4. Játékos D pulled up from place 4 to avoid a repeat meeting (1. Játékos A and 2. Játékos B have met)",
        "level": "muted",
    }
    hungarian = {
        PULLED_UP: "%(player)s feljebb került a(z) %(place)s. helyről %(reason)s",
        PULL_AVOID: "(%(a)s és %(b)s már találkozott)",
    }
    assert render(pulled, lambda m: hungarian.get(m, m)) == (
        "4. Játékos D feljebb került a(z) 4. helyről (1. Játékos A és 2. Játékos B már találkozott)"
    )


def test_a_repeat_note_translates_its_reason_too():
    note = Note(REPEAT, a=Ref("p101"), b=Ref("p102"), why=Note(NO_REPEAT_FREE))
    data = note.as_data({"p101": "1. A", "p102": "2. B"}.get)
    hungarian = {REPEAT: "%(a)s és %(b)s ismét találkozik (%(why)s)", NO_REPEAT_FREE: "nincs jobb"}
    assert render(data, lambda m: hungarian.get(m, m)) == "1. A és 2. B ismét találkozik (nincs jobb)"


def test_an_old_stored_text_note_still_shows():
    assert describe({"kind": "engine", "text": "régi szöveg"}) == {"text": "régi szöveg", "level": "muted"}


def test_the_round_1_seeding_is_named_in_the_readers_language():
    """The seeding's name is a note of its own: never the option's key ("slide") on a Hungarian page."""
    pairing = pair_round([Player(f"p{100 + i}", rating=3000 - i) for i in range(1, 10)], [], 1)
    (seeded,) = [n for n in _notes(pairing, people(9), 1) if n.get("msgid") == SEEDED]
    assert seeded["params"]["how"]["msgid"] == SEEDING_NAMES["slide"]
    with translation.override("hu"):
        text = describe(seeded)["text"]
    assert "slide" not in text and "harmadából" in text and "listasorrendben" in text
    with translation.override("en"):
        assert "in list order" in describe(seeded)["text"]
