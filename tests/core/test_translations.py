"""Every catalogue is complete and its compiled .mo matches the .po (so `make run` needs no gettext)."""

from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(p for p in ROOT.glob("**/locale/hu/LC_MESSAGES/django.po") if ".venv" not in p.parts)


def test_there_are_catalogues():
    assert CATALOGUES


@pytest.mark.parametrize("po_path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_catalogue_is_complete_and_compiled(po_path):
    po = polib.pofile(str(po_path))
    missing = [e.msgid for e in po.untranslated_entries()] + [e.msgid for e in po.fuzzy_entries()]
    assert not missing, f"untranslated in {po_path}: {missing[:10]}"
    mo_path = po_path.with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path} missing: run make messages"
    mo = {(e.msgctxt, e.msgid): e.msgstr or e.msgstr_plural for e in polib.mofile(str(mo_path))}
    for entry in po.translated_entries():
        key = (entry.msgctxt, entry.msgid)
        assert key in mo, f"{entry.msgid!r} not compiled in {mo_path}: run make messages"
