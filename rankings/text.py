"""Search folding shared by the stored lists (SQL) and the search box (Python)."""

# Hungarian accented letters, lower and upper case, folded to plain lower-case letters. SQLite's LOWER()
# only knows ASCII, so the upper-case forms are listed too; the same table folds the search box input.
FOLD = {
    "á": "a", "é": "e", "í": "i", "ó": "o", "ö": "o", "ő": "o", "ú": "u", "ü": "u", "ű": "u",
    "Á": "a", "É": "e", "Í": "i", "Ó": "o", "Ö": "o", "Ő": "o", "Ú": "u", "Ü": "u", "Ű": "u",
}  # fmt: skip
_TABLE = str.maketrans(FOLD)


def fold(text: str) -> str:
    return text.lower().translate(_TABLE).strip()


def fold_sql(expression: str) -> str:
    """The SQL expression folding ``expression`` the same way (portable: REPLACE and LOWER only)."""
    sql = f"LOWER({expression})"
    for accented, plain in FOLD.items():
        sql = f"REPLACE({sql}, '{accented}', '{plain}')"
    return sql
