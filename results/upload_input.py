"""The one way a result file gets in: its size limit and its decoding, shared by every game's pages and API.

Size: no upload may be larger than ``RESULT_UPLOAD_MAX_BYTES`` (settings, from the environment). A file is
refused by its declared size before it is read, and never more than one byte over the limit is read, so a
file that lies about its size is refused too. An API body whose Content-Length is far over the limit is
refused before it is parsed (:func:`check_request_size`).

Decoding (Hungarian files): UTF-8 (with or without a BOM); otherwise Windows-1250 if the file has a byte in
0x80-0x9F (printable only in cp1250: „ ” – …, Š, Ž), else ISO-8859-2. The Hungarian letters (ő 0xF5,
ű 0xFB, Ő 0xD5, Ű 0xDB and the rest) are the same in both. Never Latin-1, which turns ő into õ and ű into û.
A file that is none of these — a NUL byte (UTF-16, binary), a byte cp1250 does not define, or UTF-8 text
with a broken byte in it — is refused naming the line of the first bad byte.

Every refusal is an :class:`UploadInputError` with a translated ``message`` (and ``messages``, like the
apps' own upload errors) and the HTTP ``status_code`` an API answers with (413 for a too large file).
"""

import re

from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

UTF8_BOM = b"\xef\xbb\xbf"
# A multipart or JSON body carries more than the file (boundaries, other fields, JSON escapes): the early
# Content-Length check leaves this much room; the file itself is then measured exactly.
BODY_ALLOWANCE = 64 * 1024


class UploadInputError(Exception):
    """A file refused before it is parsed; nothing has been written."""

    status_code = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    @property
    def messages(self) -> list[str]:
        return [self.message]


class UploadTooLarge(UploadInputError):
    status_code = 413

    def __init__(self, limit: int):
        self.limit = limit
        super().__init__(
            _("The file is too large: at most %(limit)s can be uploaded.") % {"limit": filesizeformat(limit)}
        )


class UndecodableUpload(UploadInputError):
    def __init__(self, line: int):
        self.line = line
        super().__init__(
            _(
                "line %(line)s: the file cannot be read as UTF-8, Windows-1250 or ISO-8859-2 text; "
                "save it as UTF-8 and upload it again"
            )
            % {"line": line}
        )


def max_bytes() -> int:
    return settings.RESULT_UPLOAD_MAX_BYTES


def read_upload_bytes(upload, limit: int | None = None) -> bytes:
    """The bytes of an uploaded file (Django's or DRF's ``UploadedFile``), refused if over the limit.

    ``limit`` is for uploads that are not result files (appeal attachments keep their own 5 MB)."""
    limit = max_bytes() if limit is None else limit
    if upload.size is not None and upload.size > limit:
        raise UploadTooLarge(limit)
    upload.seek(0)
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise UploadTooLarge(limit)
    return data


def read_upload_text(upload) -> str:
    """An uploaded file as text: the size limit, then the decoding of Hungarian files."""
    return decode_text(read_upload_bytes(upload))


def check_text_size(text: str) -> str:
    """Text that arrived as a form or JSON field (a pasted CSV) under the same limit as a file."""
    limit = max_bytes()
    if len(text) > limit or len(text.encode("utf-8")) > limit:
        raise UploadTooLarge(limit)
    return text


def check_request_size(request) -> None:
    """Refuse a body far over the limit by its Content-Length, before anything parses it."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    limit = max_bytes()
    if length > 2 * limit + BODY_ALLOWANCE:
        raise UploadTooLarge(limit)


def decode_text(data: bytes) -> str:
    """A PBN or CSV file's text: UTF-8, else Windows-1250 or ISO-8859-2 (see the module's docstring)."""
    data = data.removeprefix(UTF8_BOM)
    nul = data.find(b"\x00")
    if nul != -1:
        raise UndecodableUpload(line_of(data, nul))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = error.start
    if _looks_like_utf8(data[:bad]):
        raise UndecodableUpload(line_of(data, bad))
    encoding = "cp1250" if any(0x80 <= byte <= 0x9F for byte in data) else "iso-8859-2"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise UndecodableUpload(line_of(data, error.start)) from None


def _looks_like_utf8(valid_prefix: bytes) -> bool:
    """Letters of U+00C0-U+017F (á, ő, ű, ...) spelt in UTF-8 before the first bad byte: a UTF-8 file that
    is broken, not a cp1250 one (there such a pair would be Ă, Ä or Ĺ followed by a punctuation mark)."""
    text = valid_prefix.decode("utf-8", "ignore")
    return any("\u00c0" <= char <= "\u017f" for char in text)


def line_of(data: bytes, position: int) -> int:
    """1-based line of a byte position; CR LF, LF and a bare CR (old Mac files) each end a line."""
    head = data[:position]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


# Photos and PDFs (appeal attachments, convention cards): the bytes decide the type, never the name.
# (magic bytes, content type, extension)
SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png", "png"),
    (b"\xff\xd8\xff", "image/jpeg", "jpg"),
    (b"%PDF-", "application/pdf", "pdf"),
)
ALLOWED_TYPES = {content_type for _magic, content_type, _ext in SIGNATURES}
# The file names an upload may carry, by the type its bytes show; any other extension (.html, .svg, .exe) is
# refused, and a name whose extension does not match its bytes gets the right one.
EXTENSIONS = {"image/png": ("png",), "image/jpeg": ("jpg", "jpeg"), "application/pdf": ("pdf",)}
ALLOWED_EXTENSIONS = {ext for exts in EXTENSIONS.values() for ext in exts}
_UNSAFE = re.compile(r'[\x00-\x1f\x7f"\\/<>:*?|;%]+')


def sniff(head: bytes) -> tuple[str, str] | None:
    """(content type, extension) of a PNG, JPEG or PDF by its first bytes; None for anything else."""
    for magic, content_type, extension in SIGNATURES:
        if head.startswith(magic):
            return content_type, extension
    return None


def display_name(name: str, content_type: str) -> str:
    """The uploader's file name made a safe label: no path, no control or quoting characters, at most 150
    characters, always ending in the extension of the type its bytes show ("IMG 1.jpg", "lap.pdf")."""
    extensions = EXTENSIONS.get(content_type, ("bin",))
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = _UNSAFE.sub("_", base).strip(" ._") or "file"
    stem, dot, extension = base.rpartition(".")
    if not dot or not stem:
        stem, extension = base, ""
    extension = extension.lower()
    if extension in extensions:
        return f"{stem[:140]}.{extension}"
    if extension in ALLOWED_EXTENSIONS:  # "scan.pdf" whose bytes are a PNG: the right extension instead
        return f"{stem[:140]}.{extensions[0]}"
    return f"{base[:140]}.{extensions[0]}"  # a name stored before the check ("x.html"): "x.html.png"
