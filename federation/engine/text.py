"""Search keys: names and titles folded for accent- and case-insensitive matching ("Székely" -> "szekely").

Hungarian's accented vowels (á é í ó ö ő ú ü ű) all decompose (NFKD) into a base letter and combining
marks; the marks are dropped, the rest case-folded and the whitespace collapsed. The same function folds
the stored column and the query, so the database compares plain lower-case ASCII-ish text.
"""

import unicodedata


def search_key(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text or "")
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())
