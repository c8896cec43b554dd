"""Score a PBN results file without the portal: the engine behind `manage.py bridge_score`.

All results in one board's ScoreTable are scored together, so a field spread over several sections is
scored across the field. The method comes from the PBN Scoring tag unless the caller overrides it.
"""

from decimal import Decimal

from bridge.engine.pbn.games import PbnError
from bridge.engine.pbn.reader import read_session
from bridge.engine.pbn.records import SessionRecord
from bridge.engine.scoring.adjusted import ArtificialScore
from bridge.engine.scoring.session import Entry, Method, SessionScore, score_session

# Words of the PBN Scoring tag ("MP2", "IMP;Cross2", "IMP;Butler") and the method each one names.
_SCORING_WORDS = {
    "mp": Method.MATCHPOINTS,
    "mp1": Method.MATCHPOINTS,
    "mp2": Method.MATCHPOINTS,
    "matchpoints": Method.MATCHPOINTS,
    "cross1": Method.CROSS_IMPS,
    "cross2": Method.CROSS_IMPS,
    "butler": Method.BUTLER,
    "totalpoints": Method.TOTAL_POINTS,
}


def scoring_method(scoring: str | None) -> Method:
    """The method a PBN Scoring tag asks for; no tag means matchpoints. Plain 'IMP' pairs are Butler."""
    if not scoring:
        return Method.MATCHPOINTS
    words = [word.strip().lower() for word in scoring.split(";") if word.strip()]
    named = {_SCORING_WORDS[word] for word in words if word in _SCORING_WORDS}
    if len(named) == 1:
        return named.pop()
    if not named and words == ["imp"]:
        return Method.BUTLER
    raise ValueError(f"Scoring {scoring!r} is not one this scorer knows (MP1, MP2, IMP;Cross2, IMP;Butler)")


def score_pbn_text(text: str, method: str | None = None, scale: int = 2) -> dict:
    """Score PBN text; returns the JSON-ready result (see the bridge_score command). Raises PbnError."""
    session = read_session(text)
    if method is None:
        try:
            chosen = scoring_method(session.scoring)
        except ValueError as error:
            raise PbnError(session.scoring_line, str(error))
    else:
        chosen = Method(method)
    boards, pair_ids = session_entries(session)
    if not boards:
        raise PbnError(max(text.count("\n"), 1), "no board has a ScoreTable with results to score")
    return _as_json(score_session(boards, method=chosen, scale=scale), pair_ids)


def session_entries(session: SessionRecord) -> tuple[dict[int, list[Entry]], dict[str, str]]:
    """Engine entries per board, and each engine pair key's id as the file wrote it.

    A Mitchell may number both directions from 1, so if any board has the same number sitting NS and EW,
    pairs are told apart by direction ("1 NS", "1 EW"); otherwise a number is one pair wherever it sits
    (a Howell, or a Mitchell numbered through).
    """
    by_direction = any(
        {r.ns for r in board.results} & {r.ew for r in board.results} for board in session.boards
    )
    keys: dict[str, str] = {}

    def key(pair: str, direction: str) -> str:
        name = f"{pair} {direction}" if by_direction else pair
        keys[name] = pair
        return name

    boards = {}
    for board in session.boards:
        if board.results:
            boards[board.number] = [
                Entry(
                    key(r.ns, "NS"),
                    key(r.ew, "EW"),
                    r.score_ns,
                    ArtificialScore.parse(r.artificial) if r.artificial else None,
                )
                for r in board.results
            ]
    return boards, keys


def _number(value: Decimal | None) -> int | float | None:
    # JSON has one number type; a Decimal kept to hundredths prints back exactly as a float.
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() else float(value)


def _as_json(score: SessionScore, pair_ids: dict[str, str]) -> dict:
    matchpoints = score.method == Method.MATCHPOINTS
    boards = {}
    for number in sorted(score.boards):
        rows = []
        for row in score.boards[number]:
            item: dict = {"ns": pair_ids[row.ns], "ew": pair_ids[row.ew], "score_ns": row.score}
            if matchpoints:
                item.update(mp_ns=_number(row.mp_ns), mp_ew=_number(row.mp_ew))
            else:
                item.update(imp_ns=_number(row.imp_ns), imp_ew=_number(row.imp_ew))
            item["pct_ns"] = _number(row.pct_ns)
            rows.append(item)
        boards[str(number)] = rows
    ranking = []
    for placed in score.ranking:
        pair = score.pairs[placed.pair]
        ranking.append(
            {
                "pair": pair_ids[pair.pair],
                "direction": pair.direction,
                "mp" if matchpoints else "imp": _number(pair.total),
                "pct": _number(pair.percentage),
                "place": placed.place,
            }
        )
    return {"boards": boards, "ranking": ranking}
