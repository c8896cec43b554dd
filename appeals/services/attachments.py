"""Attachments: photos of score cards and PDFs, checked by their first bytes, never by their name.

The declared content type and the file name are the uploader's word; only the magic bytes decide. Files get
a random name under MEDIA_ROOT (outside the web root) and are served only by a permission-checked view, as
a download with the sniffed type, so nothing uploaded is ever rendered by the browser as a page. The name
an upload arrives with is kept only as a display label (`display_name`: a safe name ending in the extension
of its real type); a name with another extension (.html, .svg) is refused.
"""

import hashlib

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from results.upload_input import (  # noqa: F401  (sniff, display_name: re-exported for callers here)
    _UNSAFE,
    ALLOWED_EXTENSIONS,
    ALLOWED_TYPES,
    EXTENSIONS,
    SIGNATURES,
    UploadTooLarge,
    display_name,
    read_upload_bytes,
    sniff,
)

from ..models import Appeal, Attachment, TimelineEntry
from . import timeline

MAX_BYTES = 5 * 1024 * 1024
MAX_PER_CASE = 20


def download_type(attachment) -> str:
    """The Content-Type an attachment is served with: its sniffed type, and never anything outside the list."""
    return attachment.content_type if attachment.content_type in ALLOWED_TYPES else "application/octet-stream"


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
    uploaded = getattr(upload, "name", "") or ""
    declared = uploaded.replace("\\", "/").rsplit("/", 1)[-1].rpartition(".")
    if declared[1] and declared[2].lower() not in ALLOWED_EXTENSIONS:
        raise ValidationError(
            _("Only .png, .jpg, .jpeg and .pdf files can be attached, not .%(extension)s.")
            % {"extension": _UNSAFE.sub("", declared[2])[:10]}
        )
    name = display_name(uploaded, content_type)
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
