"""Issue #20: a pairing's explanations are codes with parameters, not English text with database ids: the
engine's notes keep their msgid, the service stores them with the teams' names, and the page renders them
in the reader's language."""

import json
from decimal import Decimal

from django.urls import reverse

from federation.engine.notes import Note, Ref, render
from teams.engine.pairing.pairings import ALREADY_MET, PULLED_UP_PAST, RANKS
from teams.engine.pairing.standing import TeamStanding
from teams.engine.pairing.swiss import pair_swiss
from teams.models import Match
from teams.services import explanations, pairing

HUNGARIAN = {
    RANKS: "%(home)s. és %(away)s. helyezett",
    PULLED_UP_PAST: "%(team)s feljebb hozva a %(rank)s. hely mellett",
    ALREADY_MET: "%(team)s már játszott a %(rank)s. helyezettel (%(other)s) a(z) %(round)s. fordulóban",
}


def hungarian(msgid):
    return HUNGARIAN.get(msgid, msgid)


def team(tid, start, vp=0, opponents=()):
    return TeamStanding(tid, start, Decimal(vp), Decimal(0), None, tuple(opponents))


def test_the_engine_speaks_in_codes_with_team_references():
    teams = [team(1, 1, 60), team(2, 2, 50), team(3, 3, 40), team(4, 4, 30)]
    teams += [team(5, 5, 20, [6]), team(6, 6, 10, [5])]
    result = pair_swiss(teams)
    note = result.pairings[1].explanation
    assert isinstance(note, Note) and [p.msgid for p in note.parts] == [RANKS, PULLED_UP_PAST]
    assert note.parts[1].params["team"] == Ref(5)
    assert "pulled up past rank 4" in note  # still reads as English for tools and logs
    names = {5: "Szegedi Ászok"}
    data = note.as_data(lambda tid: names.get(tid, f"#{tid}"))
    assert render(data, hungarian) == "3. és 5. helyezett; Szegedi Ászok feljebb hozva a 4. hely mellett"


def test_a_stored_note_names_the_teams_and_is_translated_when_shown(
    make_team_event, director, play, level, client
):
    event = make_team_event(teams=6, pairing_format="swiss", first_round="seeding", rounds=3)
    user = director(event)
    # Home wins every match of round 1 (1-6, 2-5, 3-4): the winners lead, so 3's natural opponent is 4,
    # whom it has met.
    play(event, user, score=lambda match: level(match.round.boards, 10))
    round_2 = pairing.generate_round(event, user)
    names = dict(event.teams.values_list("pk", "name"))
    avoided = next(m for m in round_2.matches.all() if "rematch_avoided" in m.flags)
    stored = json.loads(avoided.explanation)
    already = next(p for p in stored["parts"] if p["msgid"] == ALREADY_MET)
    assert already["params"]["team"] == names[avoided.home_id]  # the name, not the id
    assert already["params"]["other"] in names.values()
    assert explanations.shown(avoided.explanation).startswith("ranks 3 v 5; ")
    assert render(stored, hungarian).startswith(
        "3. és 5. helyezett; " + names[avoided.home_id] + " már játszott"
    )
    client.force_login(user)
    page = client.get(reverse("teams_round", args=[event.pk, 2])).content.decode()
    assert f"{names[avoided.home_id]} already met rank 4" in page
    assert '"msgid"' not in page


def test_text_stored_before_is_shown_as_it_stands():
    assert explanations.shown("edited by hand") == "edited by hand"
    assert explanations.shown("") == ""
    assert Match._meta.get_field("explanation").max_length == 500


def test_a_long_note_is_cut_by_whole_parts_within_the_column():
    long_name = "Nagyon hosszú nevű csapat " * 10
    note = Note.join(
        [Note(RANKS, home=1, away=2)] + [Note(ALREADY_MET, team=Ref(1), rank=2, other=Ref(2), round=1)] * 6
    )
    text = explanations.stored(note, {1: long_name, 2: long_name}, limit=500)
    assert len(text) <= 500
    data = json.loads(text)
    assert data["parts"][0]["msgid"] == RANKS and 1 < len(data["parts"]) < 7


def test_a_hand_edit_is_stored_as_a_note_with_the_teams_names(make_team_event, director, play, level, client):
    from django.utils import translation

    from teams.models import Round

    event = make_team_event(teams=4, pairing_format="swiss", first_round="seeding", rounds=3)
    user = director(event)

    def stronger_wins(match):
        sign = 1 if match.home.start_number < match.away.start_number else -1
        return level(match.round.boards, 50 * sign)

    play(event, user, score=stronger_wins)  # round 1: 1 v 4, 2 v 3
    second = pairing.generate_round(event, user)
    teams = {t.start_number: t.pk for t in event.teams.all()}
    names = dict(event.teams.values_list("pk", "name"))
    partner_of_1 = second.matches.get(home_id=teams[1]).away_id
    pairing.swap_teams(second, partner_of_1, teams[4], user)  # 1 v 4 again: a rematch of round 1
    edited = second.matches.get(home_id=teams[1])
    stored = json.loads(edited.explanation)
    assert [p["msgid"] for p in stored["parts"]] == [pairing.EDITED_BY_HAND, pairing.EDITED_REMATCH]
    assert stored["parts"][1]["params"] == {"a": names[teams[1]], "b": names[teams[4]], "round": 1}
    assert explanations.shown(edited.explanation) == (
        f"edited by hand; {names[teams[1]]} and {names[teams[4]]} already met in round 1: this is a rematch."
    )
    with translation.override("hu"):
        assert explanations.shown(edited.explanation).startswith("kézzel módosítva; ")
    assert render(stored, hungarian).endswith(f"{names[teams[4]]} already met in round 1: this is a rematch.")
    client.force_login(user)
    page = client.get(reverse("teams_round", args=[event.pk, 2])).content.decode()
    assert f"{names[teams[1]]} and {names[teams[4]]} already met in round 1" in page
    assert '"msgid"' not in page
    assert Round.objects.get(pk=second.pk).status == Round.Status.DRAFT


def test_a_hand_edit_onto_a_bye_says_so_in_a_note(make_team_event, director):
    event = make_team_event(teams=5)
    user = director(event)
    first = pairing.generate_round(event, user)
    bye = first.matches.get(away__isnull=True)
    other = first.matches.exclude(pk=bye.pk).first()
    pairing.swap_teams(first, bye.home_id, other.home_id, user)
    now_bye = first.matches.get(pk=bye.pk)
    data = json.loads(now_bye.explanation)
    assert [p["msgid"] for p in data["parts"]] == [pairing.EDITED_BY_HAND, pairing.EDITED_BYE]
    assert explanations.shown(now_bye.explanation) == "edited by hand; bye"
