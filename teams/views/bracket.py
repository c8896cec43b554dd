"""The knockout drawn as a bracket: one column per round, later rounds' empty slots shown as "to come"."""

from dataclasses import dataclass, field

from ..models import Match, Round


@dataclass
class Slot:
    name: str = ""
    seed: int | None = None
    score: object = None
    won: bool = False


@dataclass
class Box:
    top: Slot
    bottom: Slot
    match: Match | None = None
    bye: bool = False


@dataclass
class Column:
    title: str
    boxes: list = field(default_factory=list)

    @property
    def pairs(self):
        """Boxes two by two: the two matches whose winners meet next are joined by one line."""
        return [self.boxes[i : i + 2] for i in range(0, len(self.boxes), 2)]


def _slot(team, seed, score, winner_id):
    if team is None:
        return Slot()
    return Slot(team.name, seed, score, winner_id == team.pk)


def bracket_columns(event, name: str, titles) -> list[Column]:
    """Columns of one bracket ("main" or "consolation"); `titles(n_matches)` names a round."""
    rounds = [
        r
        for r in event.team_rounds.filter(kind=Round.Kind.KNOCKOUT, status=Round.Status.PUBLISHED)
        if name in r.brackets
    ]
    if not rounds:
        return []
    teams = {t.pk: t for t in event.teams.all()}
    columns = []
    for r in rounds:
        data = r.brackets[name]
        matches = {m.line: m for m in r.matches.filter(bracket=name).select_related("result")}
        column = Column(titles(len(data["lines"])))
        for number, top, bottom, top_seed, bottom_seed in data["lines"]:
            match = matches.get(number)
            result = getattr(match, "result", None) if match else None
            winner = result.winner_id if result else None
            if match is not None and match.away_id is None:
                winner = match.home_id
            column.boxes.append(
                Box(
                    _slot(
                        teams.get(top),
                        top_seed,
                        result.home_imps if result and match.away_id else None,
                        winner,
                    ),
                    _slot(
                        teams.get(bottom),
                        bottom_seed,
                        result.away_imps if result and match.away_id else None,
                        winner,
                    ),
                    match if match is not None and match.away_id is not None else None,
                    bye=match is not None and match.away_id is None,
                )
            )
        columns.append(column)
    remaining = len(rounds[-1].brackets[name]["lines"]) // 2
    while remaining >= 1:
        columns.append(Column(titles(remaining), [Box(Slot(), Slot()) for _ in range(remaining)]))
        remaining //= 2
    return columns
