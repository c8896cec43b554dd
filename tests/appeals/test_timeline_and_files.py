"""The timeline is immutable; attachments are sniffed, limited and served only as safe downloads."""

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from appeals.models import TimelineEntry
from appeals.services import attachments

from .conftest import user_of

pytestmark = pytest.mark.django_db

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 64
PDF = b"%PDF-1.7\n" + b"\x00" * 64
HTML = b"<html><script>alert(1)</script></html>"


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)


def test_timeline_rows_cannot_be_changed_or_deleted(world, file_case):
    appeal = file_case()
    row = appeal.timeline.first()
    row.note = "rewritten"
    with pytest.raises(TypeError):
        row.save()
    with pytest.raises(TypeError):
        row.delete()
    with pytest.raises(TypeError):
        TimelineEntry.objects.filter(appeal=appeal).update(note="x")
    with pytest.raises(TypeError):
        TimelineEntry.objects.filter(appeal=appeal).delete()
    assert appeal.timeline.count() == 4


def test_the_timeline_says_who_and_when(world, file_case):
    appeal = file_case()
    filed = appeal.timeline.get(action="filed")
    assert filed.actor == user_of(world.pairs[0]) and filed.at is not None


@pytest.mark.parametrize(
    ("data", "name", "kind"),
    [
        (PNG, "eredmenylap.png", "image/png"),
        (JPEG, "fenykep.jpeg", "image/jpeg"),
        (PDF, "jegyzokonyv.pdf", "application/pdf"),
    ],
)
def test_pictures_and_pdfs_are_accepted_by_their_bytes(world, file_case, data, name, kind):
    appeal = file_case()
    upload = SimpleUploadedFile(name, data, content_type="text/html")
    attachment = attachments.add_attachment(appeal, user_of(world.pairs[0]), upload)
    assert attachment.content_type == kind and attachment.original_name == name
    # Stored under a random name, never the uploader's.
    assert name.rsplit(".", 1)[0] not in attachment.file.name


@pytest.mark.parametrize("data", [HTML, b"GIF89a" + b"\x00" * 10, b""])
def test_anything_else_is_refused_whatever_its_name(world, file_case, data):
    appeal = file_case()
    upload = SimpleUploadedFile("score.png", data, content_type="image/png")
    with pytest.raises(ValidationError):
        attachments.add_attachment(appeal, user_of(world.pairs[0]), upload)
    assert not appeal.attachments.exists()


def test_files_over_five_megabytes_are_refused(world, file_case):
    appeal = file_case()
    upload = SimpleUploadedFile(
        "big.pdf", b"%PDF-" + b"0" * (5 * 1024 * 1024), content_type="application/pdf"
    )
    with pytest.raises(ValidationError, match="larger"):
        attachments.add_attachment(appeal, user_of(world.pairs[0]), upload)


def test_an_attachment_is_served_as_a_download_to_insiders_only(world, file_case, client):
    appeal = file_case()
    attachment = attachments.add_attachment(
        appeal, user_of(world.pairs[0]), SimpleUploadedFile("x", PDF, content_type="text/html")
    )  # (a name ending in .html is refused: tests/appeals/test_api_scope.py)
    url = reverse("appeal_attachment", args=[appeal.pk, attachment.pk])
    client.force_login(user_of(world.pairs[1]))  # the opponents are a party
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment;")
    assert 'filename="x.pdf"' in response["Content-Disposition"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert b"".join(response.streaming_content) == PDF
    client.force_login(user_of(world.pairs[3]))
    assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code in (302, 404)


def test_the_upload_page_refuses_a_disguised_file(world, file_case, client):
    appeal = file_case()
    client.force_login(user_of(world.pairs[0]))
    response = client.post(
        reverse("appeal_attachment_upload", args=[appeal.pk]),
        {"file": SimpleUploadedFile("photo.jpg", HTML, content_type="image/jpeg")},
        follow=True,
    )
    assert response.status_code == 200
    assert not appeal.attachments.exists()
