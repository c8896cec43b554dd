"""The scoring engine's refusals reach the sheet page in the reader's language (issues 20, 22).

The engine words a refusal as a marked template with named parameters; the sheet page (and the table's
phone, through the same ``sheets.message``) translates the template, names the players and words the
games. Each kind of refusal below is posted through the sheet page's preview under Hungarian and under
English; an AST walk over the scoring package makes sure no refusal a page can show stays English-only.
"""

import ast
import datetime
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from federation.models import Role
from tournaments.models import Entry, EntryMember, Event
from ulti.engine import sheet as sheet_engine
from ulti.engine.scoring import MAUSZ, Deal, ScoringError, settle
from ulti.engine.sheet import BIDS
from ulti.models import RoundUpload, ScoreSheet
from ulti.services import UltiError, draw, setup, sheets

SCORING = Path(sheet_engine.__file__).parent / "scoring"

# Refusals only the command line can meet: it reads names as typed (a page picks bids from the table's
# list) and JSON documents; the rule set's refusal is caught by the sheet (``sheet.scoring_rules``).
CLI_ONLY = {
    "cli.py": None,  # every function
    "names.py": {"_words", "_components", "parse_bid", "parse_component", "parse_silent_game"},
    "rulesets.py": {"get_ruleset"},
}


@pytest.fixture
def played(mausz, ulti_club, make_person, make_user):
    """A published round 1 of three players at one table; the director logged in on a client."""
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Hibaüzenet kupa",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 5, 2),
        status="approved",
        rule_set="mausz",
    )
    for _ in range(3):
        entry = Entry.objects.create(event=event)
        EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
    user = make_user("vezeto@example.hu", kind=Role.DIRECTOR, event=event)
    setup.ensure_settings(event, unit_forints=20)
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    table = rnd.tables.get(number=1)
    seats = list(table.seats.select_related("participant__person").order_by("position"))
    keys = [str(s.participant_id) for s in seats]
    names = [str(s.participant.person) for s in seats]
    return table, user, keys, names


def good_deals():
    """Four deals that settle (seat indexes): the refused deal goes in as deal 5."""
    return [
        {"declarer": 0, "bid": "passz", "results": {"parti": "won"}},
        {"declarer": 1, "bid": "40-100", "results": {"hundred": "won"}},
        {"declarer": 2, "bid": "ulti", "results": {"ulti": "lost", "parti": "won"}},
        {"declarer": 0, "bid": "betli", "results": {"betli": "lost"}},
    ]


def form(deals):
    """The sheet form's fields for deals given by seat index (as the page posts them)."""
    data = {}
    for n, d in enumerate(deals, start=1):
        data[f"d{n}_dealer"] = str((n - 1) % 3)
        data[f"d{n}_declarer"] = str(d["declarer"])
        data[f"d{n}_bid"] = d["bid"]
        for slot, outcome in d.get("results", {}).items():
            data[f"d{n}_{slot}"] = outcome
        for slot, levels in d.get("kontra", {}).items():
            for seat, level in levels.items():
                data[f"d{n}_{slot}_k{seat}"] = str(level)
        for game, choice in d.get("silent", {}).items():
            data[f"d{n}_s_{game}"] = choice
        if d.get("impdbl"):
            data[f"d{n}_impdbl"] = "1"
        if d.get("revoke"):
            seat, phase, offence = d["revoke"]
            data.update({f"d{n}_rv_player": str(seat), f"d{n}_rv_phase": phase, f"d{n}_rv_offence": offence})
    return data


# (the refused deal 5, its Hungarian text, its English text); {0}, {1}, {2}: the players' names by seat.
REFUSALS = [
    pytest.param(
        {"declarer": 1, "bid": "40-100", "results": {"hundred": "won"}, "kontra": {"hundred": {1: 1}}},
        "{1} a felvevő, mégis kontrát mondott erre: 40-100; kontrát csak ellenjátékos mondhat",
        "kontra by the declarer {1} on 40-100: only a defender doubles",
        id="kontra by the declarer",
    ),
    pytest.param(
        {"declarer": 2, "bid": "ulti", "results": {"parti": "won"}},
        "nincs eredmény erre: ulti (Ulti = ulti + parti)",
        "no result for ulti (Ulti is ulti + parti)",
        id="missing result",
    ),
    pytest.param(
        {
            "declarer": 0,
            "bid": "40-100 ulti",
            "results": {"hundred": "won", "ulti": "won"},
            "silent": {"ulti": "declarer"},
        },  # fmt: skip
        "40-100 ulti már bemondja: ulti, így az nem lehet csendes is",
        "40-100 ulti already bids ulti: it cannot also be silent",
        id="silent what the bid bids",
    ),
    pytest.param(
        {"declarer": 0, "bid": "passz", "results": {"parti": "won"}, "silent": {"durchmars": "declarer"}},
        "csendes durchmars nem számít a(z) mausz szabályai szerint",
        "silent durchmars does not count under the mausz rules",
        id="silent game outside the rules",
    ),
    pytest.param(
        {"declarer": 0, "bid": "betli", "results": {"betli": "won"}, "silent": {"aces": "declarer"}},
        "csendes teljesítés csak adus játékban van",
        "silent achievements exist only in games with trumps",
        id="silent in a no-trump game",
    ),
    pytest.param(
        {"declarer": 0, "bid": "passz", "results": {"parti": "won"}, "silent": {"aces": "declarer_failed"}},
        "csak a csendes ulti lehet bukott; csendes négy ász csak akkor írható be, ha teljesült",
        "only a silent ulti can fail; record a silent four aces only when made",
        id="failed silent four aces",
    ),
    pytest.param(
        {"declarer": 2, "bid": "durchmars", "results": {"durchmars": "won"}, "silent": {"ulti": "defenders"}},
        "a felvevő megcsinálta a durchmarsot: az ellenjátékosoknak nem lehet csendes ulti",
        "the declarer made a durchmars: the defenders cannot make a silent ulti",
        id="defenders' silent game against a made durchmars",
    ),
    pytest.param(
        {"declarer": 1, "bid": "passz", "revoke": (0, "bidding", "trump suit")},
        "az adu színének elárulása a felvevő szabálytalansága",
        "revealing the trump suit is an offence of the declarer",
        id="trump suit revealed by a defender",
    ),
    pytest.param(
        {"declarer": 1, "bid": "red passz", "revoke": (1, "bidding", "trump suit")},
        "csak nem piros adu színe árulható el",
        "only a non-red trump suit can be revealed",
        id="red trump suit revealed",
    ),
    pytest.param(
        {"declarer": 0, "bid": "ulti", "results": {"ulti": "impossible", "parti": "won"}, "impdbl": True},
        "a lehetetlen ulti az első körben megkontrázva, de nincs hozzá kontra beírva",
        "impossible ulti doubled in the first round but no kontra recorded",
        id="impossible doubled without kontra",
    ),
    pytest.param(
        {"declarer": 0, "bid": "passz", "results": {"parti": "impossible"}},
        "parti nem lehet lehetetlen; csak a 40-100, a 20-100 és az ulti lehet az (I.4 (5))",
        "parti cannot be impossible; only 40-100, 20-100 and ulti can (I.4 (5))",
        id="parti impossible",
    ),
    pytest.param(
        {"declarer": 2, "bid": "ulti durchmars", "results": {"ulti": "lost", "durchmars": "won"}},
        "minden ütést elvitt: ulti nem lehet bukott (I.1 (2))",
        "so he took every trick: ulti cannot be lost (I.1 (2))",
        id="durchmars_lost, one of the five earlier codes",
    ),
]


def preview_error(client, table, deals, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    with translation.override(language):
        response = client.post(
            f"/ulti/tables/{table.pk}/sheet/preview/", form(deals), HTTP_ACCEPT_LANGUAGE=language
        )
    assert response.status_code == 200
    return [d["error"] for d in response.json()["deals"]]


@pytest.mark.django_db
@pytest.mark.parametrize(("deal", "hungarian", "english"), REFUSALS)
def test_the_sheet_page_words_each_refusal_in_the_readers_language(client, played, deal, hungarian, english):
    table, user, keys, names = played
    client.force_login(user)
    deals = [*good_deals(), deal]
    hu = preview_error(client, table, deals, "hu")
    en = preview_error(client, table, deals, "en")
    assert hu[:4] == ["", "", "", ""] and en[:4] == ["", "", "", ""]
    assert hu[4].startswith("5. leosztás: "), hu[4]
    assert hungarian.format(*names) in hu[4], hu[4]
    assert en[4].startswith("Deal 5: ") and english.format(*names) in en[4], en[4]
    # No English left in the Hungarian, no player id anywhere.
    english_words = set(re.findall(r"[a-z]{4,}", english.format(*names))) - {
        "ulti",
        "parti",
        "kontra",
        "mausz",
    }
    english_words -= set(re.findall(r"[a-zéáíóöőúüű]{4,}", hungarian.format(*names)))
    assert not any(re.search(rf"\b{w}\b", hu[4]) for w in english_words), hu[4]
    assert not any(f"'{key}'" in hu[4] + en[4] for key in keys)


@pytest.mark.django_db
def test_a_refused_save_names_the_deal_and_the_declarer_in_hungarian(played):
    table, user, keys, names = played
    deal = {"declarer": 1, "bid": "40-100", "results": {"hundred": "won"}, "kontra": {"hundred": {1: 2}}}
    rows = sheets.rows_of_form(table, form([*good_deals(), deal]))
    with translation.override("hu"), pytest.raises(UltiError) as refused:
        sheets.save(table, rows, user=user)
    text = refused.value.messages[0]
    assert text.startswith("5. leosztás: "), text
    assert f"{names[1]} a felvevő, mégis kontrát mondott erre: 40-100" in text
    assert f"'{keys[1]}'" not in text
    assert not ScoreSheet.objects.exists() and not RoundUpload.objects.exists()


def test_the_command_line_keeps_a_readable_english_sentence():
    deal = Deal(("A", "B", "C"), "A", BIDS["ulti"], won={}, kontra={BIDS["ulti"].ordered[0]: {"A": 1}})
    with pytest.raises(ScoringError) as refused:
        settle(deal, MAUSZ)
    assert str(refused.value) == "kontra by the declarer 'A' on ulti: only a defender doubles"
    assert refused.value.template == "kontra by the declarer %(player)s on %(part)s: only a defender doubles"


def _raises(tree):
    """(function name, the ScoringError call) of every `raise ScoringError(...)` in a module."""
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and getattr(node.exc.func, "id", "") == "ScoringError"
            ):
                yield function.name, node.exc


def test_every_refusal_a_page_can_show_carries_a_translated_template():
    checked, cli_seen = 0, set()
    for path in sorted(SCORING.glob("*.py")):
        for function, call in _raises(ast.parse(path.read_text())):
            allowed = CLI_ONLY.get(path.name, set())
            if allowed is None or function in allowed:
                cli_seen.add((path.name, function))
                continue
            where = f"{path.name}:{call.lineno} ({function})"
            first = call.args[0] if call.args else None
            assert (
                isinstance(first, ast.Call)
                and getattr(first.func, "id", "") == "gettext_noop"
                and isinstance(first.args[0], ast.Constant)
                and isinstance(first.args[0].value, str)
            ), f"{where}: a refusal needs a gettext_noop(...) template, not English text"
            template = first.args[0].value
            placeholders = set(re.findall(r"%\((\w+)\)s", template))
            given = {k.arg for k in call.keywords} - {"code"}
            assert placeholders == given, f"{where}: {template!r} takes {placeholders}, given {given}"
            with translation.override("hu"):
                assert translation.gettext(template) != template, f"{where}: no Hungarian for {template!r}"
            checked += 1
    assert checked >= 28
    # The list of command-line refusals names only functions that raise (it cannot hide a page's refusal).
    listed = {(m, f) for m, fs in CLI_ONLY.items() if fs for f in fs}
    assert listed <= cli_seen and any(m == "cli.py" for m, _f in cli_seen)
