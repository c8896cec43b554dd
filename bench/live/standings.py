"""What the live test reads off the live standings fragment (bridge/_live_standings.html): each row's pair
number and the boards that pair has played. Shared by the locustfile and run.sh's final check."""

import re

# A standings row names its pair number and the boards that pair has played in data attributes (read here,
# not from the cells, whose classes change with the layout: tests/bridge/tables/test_live_pages.py).
ROW = re.compile(r'<tr data-pair="(\d+)" data-boards="(\d+)"')


def boards_by_pair(html: str) -> dict[int, int]:
    return {int(number): int(boards) for number, boards in ROW.findall(html)}
