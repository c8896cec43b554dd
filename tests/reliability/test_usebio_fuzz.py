"""The USEBIO reader refuses any text with a UsebioError naming a line, never another exception (which
would be a 500 on the upload page): raw text, and a real export with its elements' values replaced."""

import re

from hypothesis import given
from hypothesis import strategies as st

from bridge.engine.pbn.records import session_record
from bridge.engine.pbn.usebio import write_usebio
from bridge.engine.pbn.usebio_reader import UsebioError, read_usebio
from bridge.engine.scoring.session import score_session
from tests.bridge.test_program_check import _boards
from tests.reliability.test_parsers_fuzz import FUZZ, TEXT, WORDS

VALID = write_usebio(session_record(score_session(_boards(), method="mp")))
ELEMENTS = sorted(set(re.findall(r"<([A-Z_]+)>[^<]*</\1>", VALID)))


def _replaced(choices) -> str:
    text = VALID
    for name, value in choices:
        escaped = value.replace("&", "&amp;").replace("<", "&lt;")
        # the new element as a function's result: a value's backslashes are text, not group references
        element = f"<{name}>{escaped}</{name}>"
        text = re.sub(rf"<{name}>[^<]*</{name}>", lambda _match, element=element: element, text, count=1)
    return text


MUTATED = st.lists(st.tuples(st.sampled_from(ELEMENTS), st.one_of(WORDS, TEXT)), min_size=1, max_size=6)


def _read(text: str) -> None:
    for lenient in (False, True):
        try:
            read_usebio(text, lenient=lenient)
        except UsebioError as error:
            assert error.line >= 1 and error.message


@FUZZ
@given(TEXT)
def test_any_text_is_refused_only_with_a_usebio_error(text):
    _read(text)


@FUZZ
@given(MUTATED)
def test_an_export_with_values_replaced_is_refused_only_with_a_usebio_error(choices):
    _read(_replaced(choices))
