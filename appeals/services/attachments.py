"""Attachments: photos of score cards and PDFs, checked by their first bytes, never by their name.

The declared content type and the file name are the uploader's word; only the magic bytes decide. Files get
a random name under MEDIA_ROOT (outside the web root) and are served only by a permission-checked view, as
a download with the sniffed type, so nothing uploaded is ever rendered by the browser as a page.
"""

import hashlib

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from results.upload_input import UploadTooLarge, read_upload_bytes

from ..models import Appeal, Attachment, TimelineEntry
from . import timeline

MAX_BYTES = 5 * 1024 * 1024
MAX_PER_CASE = 20
# (magic bytes, content type, extension)
SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png", "png"),
    (b"\xff\xd8\xff", "image/jpeg", "jpg"),
    (b"%PDF-", "application/pdf", "pdf"),
)
ALLOWED_TYPES = {content_type for _magic, content_type, _ext in SIGNATURES}


def sniff(head: bytes) -> tuple[str, str] | None:
    """(content type, extension) of a PNG, JPEG or PDF by its first bytes; None for anything else."""
    for magic, content_type, extension in SIGNATURES:
        if head.startswith(magic):
            return content_type, extension
    return None


@transaction.atomic
def add_attachment(appeal, user, upload) -> Attachment:
    if appeal.status in (Appeal.Status.CLOSED, Appeal.Status.WITHDRAWN, Appeal.Status.LAPSED):
        raise ValidationError(_("This case is closed; nothing can be attached."))
    if appeal.attachments.count() >= MAX_PER_CASE:
        raise ValidationError(_("A case takes at most %(n)s attachments.") % {"n": MAX_PER_CASE})
    try:
        # Refused by its declared size unread, and never more than one byte over the limit is read.
        data = read_upload_bytes(upload, limit=MAX_BYTES)
    except UploadTooLarge:
        raise ValidationError(_("The file is larger than %(max)s.") % {"max": filesizeformat(MAX_BYTES)})
    if not data:
        raise ValidationError(_("The file is empty."))
    kind = sniff(data[:16])
    if kind is None:
        raise ValidationError(_("Only PNG and JPEG photos and PDF documents can be attached."))
    content_type, extension = kind
    name = (getattr(upload, "name", "") or "").rsplit("/", 1)[-1].rsplit("\\", 1)[-1][
        :150
    ] or f"file.{extension}"
    attachment = Attachment(
        appeal=appeal,
        original_name=name,
        content_type=content_type,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        uploaded_by=user,
    )
    attachment.file.save(f"upload.{extension}", ContentFile(data), save=False)
    attachment.save()
    timeline.record(appeal, TimelineEntry.Action.ATTACHMENT, user, name, mail=False)
    return attachment
