"""A knockout round's bracket lines stored with the round (JSON), and the winners its matches produced."""

from django.utils.translation import gettext as _

from teams.engine.pairing.knockout import KnockoutMatch, KnockoutRound

from . import Refused


def to_json(bracket: KnockoutRound) -> dict:
    return {
        "round_no": bracket.round_no,
        "lines": [[m.number, m.top, m.bottom, m.top_seed, m.bottom_seed] for m in bracket.matches],
    }


def from_json(name: str, data: dict) -> KnockoutRound:
    return KnockoutRound(name, data["round_no"], tuple(KnockoutMatch(*line) for line in data["lines"]))


def winners(round_, name: str) -> dict[int, int]:
    """line -> winning team id of the bracket's real matches; Refused while one is unplayed or tied."""
    out = {}
    for match in round_.matches.filter(bracket=name, away__isnull=False).select_related(
        "result", "home", "away"
    ):
        result = getattr(match, "result", None)
        if result is None:
            raise Refused(_("%(match)s has no result yet.") % {"match": match})
        if result.winner_id is None:
            raise Refused(
                _("%(match)s is tied: upload the result including the extra boards that decided it.")
                % {"match": match}
            )
        out[match.line] = result.winner_id
    return out
