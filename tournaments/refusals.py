"""The words for each eligibility refusal: the player and the rule, in the reader's language."""

from django.utils import formats as date_formats
from django.utils.translation import gettext as _

from .engine.eligibility import Refusal


class Refused(Exception):
    """A step was refused and nothing was written; `messages` say why (for an entry: one per rule and player)."""

    def __init__(self, messages):
        self.messages = [str(m) for m in messages]
        super().__init__("; ".join(self.messages))


EntryRefused = Refused


def _date(value):
    return date_formats.date_format(value, "Y. m. d.") if value else ""


def describe(refusal: Refusal) -> str:
    p = {"player": refusal.player, **dict(refusal.params)}
    rule = refusal.rule
    if rule == "suspended":
        if p.get("until"):
            return _("%(player)s: playing rights are suspended until %(until)s (VSz 6).") % {
                **p,
                "until": _date(p["until"]),
            }
        return _("%(player)s: playing rights are suspended (VSz 6).") % p
    if rule == "members_only":
        return _("%(player)s is not a member of %(federation)s; the event is for members only (VSz 2).") % p
    if rule == "citizens_only":
        return (
            _("%(player)s is not a Hungarian citizen; the event is for Hungarian citizens only (VSz 2).") % p
        )
    if rule == "residency":
        return (
            _(
                "%(player)s is a foreign citizen who does not live in Hungary; the event admits foreign "
                "members resident in Hungary only (VSz 2)."
            )
            % p
        )
    if rule == "women_only":
        return _("%(player)s may not enter: the event is for women only (VSz 3).") % p
    if rule == "men_only":
        return _("%(player)s may not enter: the event is for men only (VSz 3).") % p
    if rule == "junior_only":
        return (
            _(
                "%(player)s is not a junior on the event date: the event is for players who did not turn 25 in "
                "the year before it (VSz 3)."
            )
            % p
        )
    if rule == "senior_only":
        return (
            _(
                "%(player)s is not a senior on the event date: the event is for players who turned 55 in the "
                "year before it (VSz 3)."
            )
            % p
        )
    if rule == "licence":
        return (
            _("%(player)s has no ulti licence (versenyengedély) for %(year)s, which this event requires.") % p
        )
    if rule == "region":
        return (
            _(
                "%(player)s plays in the %(home)s region; entering an event of the %(region)s region needs a "
                "notice recorded by the federation (MAUSZ 9 (2))."
            )
            % p
        )
    if rule == "region_switch":
        return (
            _(
                "%(player)s has already played in another region this season: switching to the %(region)s "
                "region needs the board's consent."
            )
            % p
        )
    if rule == "already_entered":
        return _("%(player)s is already entered in this event.") % p
    if rule == "twice":
        return _("%(player)s is named twice in the entry.") % p
    if rule == "mixed":
        return (
            _(
                "%(player)s: a mixed pair is one lady and one man, a mixed team has at least two of each (VSz 3)."
            )
            % p
        )
    if rule == "team_name":
        return _("A team of this event needs a team name.")
    if rule == "size":
        if p["min"] == p["max"]:
            return _("An entry of this event has %(min)s players, not %(given)s.") % p
        return _("An entry of this event has %(min)s to %(max)s players, not %(given)s.") % p
    return rule


def describe_all(refusals) -> list[str]:
    return [describe(r) for r in refusals]
