"""The VSz 26 program test on the portal: a file another program scored, re-scored and compared.

The comparison is the engine's (`bridge.engine.program_check`); this reads the uploaded file (size limit,
Hungarian decoding) and turns a refusal into the upload's error with its line. Nothing is written.
"""

from django.utils.translation import gettext as _

from bridge.engine.pbn.reader import PbnError
from bridge.engine.program_check import CheckReport, check_pbn_text
from results.upload_input import read_upload_text

from .uploads import UploadError


def check_file(file) -> CheckReport:
    """The report of an uploaded PBN file (UploadInputError: size, encoding; UploadError: the content)."""
    text = read_upload_text(file)
    try:
        return check_pbn_text(text)
    except PbnError as error:
        raise UploadError([_("line %(line)s: %(message)s") % {"line": error.line, "message": error.message}])
