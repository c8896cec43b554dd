"""Team championship: who reaches the final from the regional events (pure: no Django).

MAUSZ V: regions combined, 15 teams reach the final, 7 from each region, the 15th from the region that
had more teams. Where the rule book is silent: with equally many teams the extra place goes to the region
whose next team did better (points, then forint), then to the region name in alphabetical order; a region
with fewer teams than its quota leaves its places to the other regions by the same order. Everyone else is
on the reserve list of his region, in order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from .standings_list import rank

__all__ = ["TeamResult", "TeamLine", "TeamFinal", "team_final"]


@dataclass(frozen=True)
class TeamResult:
    key: str
    region: str
    points: Decimal | int
    forint: int


@dataclass(frozen=True)
class TeamLine:
    key: str
    region: str
    points: Decimal | int
    forint: int
    region_place_from: int
    region_place_to: int
    status: str  # "finalist" or "reserve"
    via: str  # "region" (the region's quota), "extra" (the extra place) or "" (reserve)
    reserve_position: int | None  # 1.. within the region's reserve list


@dataclass(frozen=True)
class TeamFinal:
    lines: tuple[TeamLine, ...]  # by region, then region place
    extra_regions: tuple[str, ...]  # the region(s) that got places beyond the quota

    @property
    def finalists(self) -> list[TeamLine]:
        return [line for line in self.lines if line.status == "finalist"]

    def reserves(self, region: str) -> list[TeamLine]:
        return sorted(
            (x for x in self.lines if x.region == region and x.status == "reserve"),
            key=lambda x: x.reserve_position,
        )


def team_final(results: Iterable[TeamResult], *, places: int = 15, per_region: int = 7) -> TeamFinal:
    results = list(results)
    if len({r.key for r in results}) != len(results):
        raise ValueError("a team appears twice; give each team's best regional result once")
    regions = sorted({r.region for r in results})
    ranked = {
        region: rank(
            [r for r in results if r.region == region],
            score=lambda r: (r.points, r.forint),
            order_key=lambda r: r.key,
        )
        for region in regions
    }
    taken = {region: min(per_region, len(ranked[region])) for region in regions}
    left = places - sum(taken.values())
    extra: list[str] = []
    while left > 0:
        open_regions = [g for g in regions if taken[g] < len(ranked[g])]
        if not open_regions:
            break

        def priority(g):
            nxt = ranked[g][taken[g]].item
            return (-len(ranked[g]), -nxt.points, -nxt.forint, g)

        best = min(open_regions, key=priority)
        taken[best] += 1
        extra.append(best)
        left -= 1
    lines = []
    for region in regions:
        quota = min(per_region, len(ranked[region]))
        for i, r in enumerate(ranked[region]):
            finalist = i < taken[region]
            lines.append(
                TeamLine(
                    key=r.item.key,
                    region=region,
                    points=r.item.points,
                    forint=r.item.forint,
                    region_place_from=r.place_from,
                    region_place_to=r.place_to,
                    status="finalist" if finalist else "reserve",
                    via=("region" if i < quota else "extra") if finalist else "",
                    reserve_position=None if finalist else i - taken[region] + 1,
                )
            )
    return TeamFinal(lines=tuple(lines), extra_regions=tuple(dict.fromkeys(extra)))
