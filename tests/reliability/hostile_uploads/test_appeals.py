"""Hostile appeal attachments: photos of score cards and PDFs."""

import datetime
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tournaments.models import Entry, EntryMember, Event

from .helpers import (
    SCRIPT,
    START,
    garbage,
    snapshot,
)

pytestmark = pytest.mark.django_db


# --- appeals: attachments (photos of score cards, PDFs) --------------------------------------------------


@pytest.fixture
def appeal(mbsz, make_person, make_user, settings, tmp_path):
    from appeals.models import Appeal
    from tournaments.models import Session

    settings.MEDIA_ROOT = str(tmp_path)
    event = Event.objects.create(
        federation=mbsz,
        title="Fellebbezés",
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=datetime.date(2026, 12, 5),
        status=Event.Status.APPROVED,
        masterpoint_multiplier="1.00",
    )
    session = Session.objects.create(event=event, name="1. forduló", starts_at=START)
    entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE)
    EntryMember.objects.create(entry=entry, person=make_person(federation=mbsz), position=1)
    user = make_user("fellebbezo@example.hu")
    case = Appeal.objects.create(
        event=event,
        number=1,
        session=session,
        board_number=1,
        entry=entry,
        director_name=SCRIPT,
        ruling=SCRIPT,
        request=SCRIPT,
        statement=SCRIPT,
        filed_by=user,
    )
    return SimpleNamespace(case=case, user=user)


PNG = b"\x89PNG\r\n\x1a\n"
ATTACHMENTS = [
    ("html-named-png", "card.png", f"<html>{SCRIPT}</html>".encode(), "Only PNG"),
    (
        "svg-with-script",
        "card.svg",
        f'<svg xmlns="http://www.w3.org/2000/svg">{SCRIPT}</svg>'.encode(),
        "Only PNG",
    ),
    ("utf16-text", "card.pdf", "%PDF-1.7 hamis".encode("utf-16"), "Only PNG"),
    ("garbage", "card.jpg", garbage(7), "Only PNG"),
    ("empty", "card.png", b"", "empty"),
    ("oversized-png", "card.png", PNG + b"\0" * (5 * 1024 * 1024), "larger"),
]


@pytest.mark.parametrize("case, name, data, expected", ATTACHMENTS, ids=[a[0] for a in ATTACHMENTS])
def test_appeal_attachment_refuses_and_writes_nothing(appeal, case, name, data, expected):
    from django.core.exceptions import ValidationError

    from appeals.services.attachments import add_attachment

    before = snapshot()
    with pytest.raises(ValidationError) as refused:
        add_attachment(appeal.case, appeal.user, SimpleUploadedFile(name, data, content_type="image/png"))
    assert any(expected in m for m in refused.value.messages)
    assert snapshot() == before


def test_appeal_attachment_with_a_script_name_is_refused_and_a_disguised_one_stored_as_a_sniffed_png(appeal):
    from django.core.exceptions import ValidationError

    from appeals.models import Attachment
    from appeals.services.attachments import add_attachment

    before = Attachment.objects.count()
    upload = SimpleUploadedFile(f"{SCRIPT}.html", PNG + SCRIPT.encode(), content_type="text/html")
    with pytest.raises(ValidationError, match=r"\.html"):
        add_attachment(appeal.case, appeal.user, upload)
    assert Attachment.objects.count() == before
    # A PNG under a PDF's name and a script's type is kept as what its bytes are, under a safe name.
    upload = SimpleUploadedFile(f"{SCRIPT}.pdf", PNG + SCRIPT.encode(), content_type="text/html")
    attachment = add_attachment(appeal.case, appeal.user, upload)
    assert attachment.content_type == "image/png"
    assert attachment.file.name.endswith(".png") and "<" not in attachment.file.name
    assert attachment.original_name.endswith(".png") and "<" not in attachment.original_name
