"""One room's result on one board: an NS score, or a contract, declarer and result to be scored."""

from bridge.engine.scoring.contract import (
    board_vulnerability,
    contract_score,
    is_possible_score,
    parse_contract,
    parse_seat,
    parse_tricks,
    vulnerable_sides,
)

from .problems import ParseError, Problem, gettext_noop


def _refuse(msgid: str, **params):
    return ParseError(Problem(msgid, **params))


def room_score(board: int, *, score=None, contract=None, declarer=None, result=None, vulnerable=None):
    """(NS score, contract text for the score card); a `ParseError` (a ValueError) with the reason."""
    vul_ns, vul_ew = vulnerable_sides(vulnerable or board_vulnerability(board))
    shown = ""
    played = None
    if contract:
        try:
            parsed = parse_contract(contract)
        except ValueError:
            raise _refuse(gettext_noop("%(contract)r is not a contract"), contract=contract)
        if parsed.passed_out:
            played, shown = 0, "Pass"
        else:
            try:
                seat = parse_seat(declarer)
            except ValueError:
                raise _refuse(
                    gettext_noop("declarer must be N, E, S or W, not %(seat)r"), seat=declarer or ""
                )
            try:
                tricks = parse_tricks(result or "", parsed.level)
            except ValueError:
                raise _refuse(gettext_noop("%(result)r is not a result"), result=result or "")
            played = contract_score(parsed, seat, tricks, vul_ns, vul_ew)
            made = tricks - parsed.level - 6
            shown = f"{parsed} {seat} {'=' if made == 0 else f'{made:+d}'}"
    if score is not None and str(score).strip() != "":
        text = str(score).strip()
        try:
            value = int(text)
        except ValueError:
            raise _refuse(gettext_noop("%(score)r is not a score"), score=text)
        if played is not None and played != value:
            raise _refuse(
                gettext_noop("score %(score)s does not match %(contract)s (%(played)s)"),
                score=value,
                contract=shown,
                played=played,
            )
        played = value
    if played is None:
        raise _refuse(gettext_noop("neither a score nor a contract with a result"))
    if not is_possible_score(played, vul_ns, vul_ew):
        raise _refuse(gettext_noop("%(score)s is not a possible score on this board"), score=played)
    return played, shown


def played_of(shown: str) -> tuple[str, str | None, int | None] | None:
    """The contract, declarer and tricks taken behind a score card's text as `room_score` writes it
    ("4S N =", "3NTX W -1", "Pass"); None when the text is empty or not of that form."""
    parts = (shown or "").split()
    if parts == ["Pass"]:
        return "Pass", None, None
    if len(parts) != 3:
        return None
    contract, seat, made = parts
    try:
        level = parse_contract(contract).level
        return contract, parse_seat(seat), parse_tricks(made, level)
    except ValueError:
        return None
