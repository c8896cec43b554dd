"""Table codes (issue #18), shared by the games: the short code on a table's card that lets its phones in.

Letters and digits nobody misreads on a card or types wrong on a phone (no 0/O, 1/I/L, 2/Z, 5/S, 8/B); six
of them: 25^6 codes, so a guess is hopeless and the pages lock out an address that keeps guessing.
Plain Python; both games' codes come from here (`bridge/models/tables.py`, `ulti/models.py`).
"""

import re
import secrets

CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise(text: str) -> str:
    """What a player types, as stored: capitals, no spaces or dashes."""
    return re.sub(r"[\s-]", "", text or "").upper()[: CODE_LENGTH + 4]


def well_formed(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)
