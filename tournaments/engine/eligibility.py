"""Who may enter an event (pure: no Django). VSz 2, 3, 6 and MAUSZ 9, 11, 12.

The services load the facts of the event and of every player into these dataclasses; the checks return
`Refusal`s that name the player and the rule (the texts are in `refusals.py`, translated there).
"""

import datetime
from dataclasses import dataclass

from federation.engine import age as age_rules

from . import formats

FEMALE, MALE = "F", "M"

NUB_INDIVIDUAL_CLASSES = ("nub_qualifier", "nub_semifinal", "nub_final")
# A NUB player needs a licence by the third qualifier of the season at the latest (MAUSZ 9 (1)).
LICENCE_FROM_QUALIFIER = 3


def licence_required(event_format, event_class, qualifier_number, flag) -> bool:
    if flag or event_format == formats.SPORT_ULTI:
        return True
    if event_class == "nub_qualifier":
        return (qualifier_number or 0) >= LICENCE_FROM_QUALIFIER
    return event_class in ("nub_semifinal", "nub_final")


@dataclass(frozen=True)
class EventTerms:
    federation: str
    start_date: datetime.date
    season: int
    event_format: str
    members_only: bool = False
    citizens_only: bool = False
    residency_required: bool = False
    gender: str = "open"  # open / women / men / mixed
    age: str = "open"  # open / junior / senior
    licence_required: bool = False
    region_id: int | None = None
    region_name: str = ""


@dataclass(frozen=True)
class PlayerFacts:
    person_id: int
    name: str
    birth_date: datetime.date
    gender: str
    citizenship: str = "HU"
    resident_in_hungary: bool = True
    is_member: bool = True
    suspended_until: datetime.date | None = None
    suspended: bool = False
    has_licence: bool = False
    playing_region_id: int | None = None
    playing_region_name: str = ""
    region_notice: bool = False
    # The notice switches region after the player played this season in another one, and the board has not
    # consented (MAUSZ: a switch after playing elsewhere needs the board's consent).
    region_switch_unconsented: bool = False
    already_entered: bool = False


@dataclass(frozen=True)
class Refusal:
    rule: str
    player: str = ""
    params: tuple[tuple[str, object], ...] = ()

    def param(self, name, default=None):
        return dict(self.params).get(name, default)


def check_player(terms: EventTerms, p: PlayerFacts) -> list[Refusal]:
    """Every rule one player breaks, in the order a director would read them out."""
    out = []
    if p.suspended:
        out.append(Refusal("suspended", p.name, (("until", p.suspended_until),)))
    if terms.members_only and not p.is_member:
        out.append(Refusal("members_only", p.name, (("federation", terms.federation),)))
    if terms.citizens_only and p.citizenship != "HU":
        out.append(Refusal("citizens_only", p.name))
    elif terms.residency_required and p.citizenship != "HU" and not p.resident_in_hungary:
        out.append(Refusal("residency", p.name))
    if terms.gender == "women" and p.gender != FEMALE:
        out.append(Refusal("women_only", p.name))
    if terms.gender == "men" and p.gender != MALE:
        out.append(Refusal("men_only", p.name))
    if terms.age == "junior" and not age_rules.is_junior(p.birth_date, terms.start_date):
        out.append(Refusal("junior_only", p.name))
    if terms.age == "senior" and not age_rules.is_senior(p.birth_date, terms.start_date):
        out.append(Refusal("senior_only", p.name))
    if terms.licence_required and not p.has_licence:
        out.append(Refusal("licence", p.name, (("year", terms.season),)))
    if (
        terms.region_id is not None
        and p.playing_region_id is not None
        and p.playing_region_id != terms.region_id
        and not p.region_notice
    ):
        out.append(
            Refusal(
                "region",
                p.name,
                (("home", p.playing_region_name), ("region", terms.region_name)),
            )
        )
    elif (
        terms.region_id is not None
        and p.playing_region_id is not None
        and p.playing_region_id != terms.region_id
        and p.region_switch_unconsented
    ):
        out.append(Refusal("region_switch", p.name, (("region", terms.region_name),)))
    if p.already_entered:
        out.append(Refusal("already_entered", p.name))
    return out


def check_composition(terms: EventTerms, players: list[PlayerFacts], team_name: str = "") -> list[Refusal]:
    """The entry as a whole: number of players, no one twice, a mixed pair, a team name."""
    shape = formats.shape_of(terms.event_format)
    out = []
    n = len(players)
    if not shape.min_players <= n <= shape.max_players:
        out.append(
            Refusal("size", "", (("min", shape.min_players), ("max", shape.max_players), ("given", n)))
        )
    seen = set()
    for p in players:
        if p.person_id in seen:
            out.append(Refusal("twice", p.name))
        seen.add(p.person_id)
    if shape.team_name_required and not team_name.strip():
        out.append(Refusal("team_name"))
    if terms.gender == "mixed" and n >= 2:
        women = sum(1 for p in players if p.gender == FEMALE)
        men = n - women
        ok = (women == 1 and men == 1) if n == 2 else (women >= 2 and men >= 2)
        if not ok:
            out.append(Refusal("mixed", ", ".join(p.name for p in players)))
    return out


def check_entry(terms: EventTerms, players: list[PlayerFacts], team_name: str = "") -> list[Refusal]:
    refusals = check_composition(terms, players, team_name)
    for p in players:
        refusals.extend(check_player(terms, p))
    return refusals
