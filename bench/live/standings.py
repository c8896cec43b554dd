"""What the live test reads off the live standings fragment (bridge/_live_standings.html): each row's pair
number and the boards that pair has played. Shared by the locustfile and run.sh's final check."""

import re

# A standings row: its pair number, then (after the players' cell) the boards it has played.
ROW = re.compile(r"<tr[^>]*>\s*<td>[^<]*</td>\s*<td>(\d+).*?</td>\s*<td class=\"text-end\">(\d+)</td>", re.S)


def boards_by_pair(html: str) -> dict[int, int]:
    return {int(number): int(boards) for number, boards in ROW.findall(html)}
