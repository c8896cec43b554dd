"""What the bridge commands share: reading a PBN file given on the command line."""

from pathlib import Path

from django.core.management.base import CommandError

from results.upload_input import UndecodableUpload, decode_text


def read_pbn_file(name: str) -> str:
    """The file's text, decoded as every upload is (UTF-8, Windows-1250, ISO-8859-2), or a CommandError."""
    path = Path(name)
    try:
        return decode_text(path.read_bytes())
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UndecodableUpload as exc:
        raise CommandError(exc.message) from exc
