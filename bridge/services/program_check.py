"""The VSz 26 program test on the portal: a file another program scored, re-scored and compared.

The comparison is the engine's (`bridge.engine.program_check`); this reads the uploaded file (size limit,
Hungarian decoding) and turns a refusal into the upload's error with its line. Nothing is written.
"""

from django.utils.translation import gettext as _

from bridge.engine.pbn.reader import PbnError
from bridge.engine.pbn.usebio_reader import UsebioError
from bridge.engine.program_check import CheckReport, as_json, check_text
from results.upload_input import read_upload_text

from ..models import AcceptedProgram
from .uploads import UploadError


def check_file(file) -> CheckReport:
    """The report of an uploaded PBN or USEBIO file (UploadInputError: size, encoding; UploadError: the
    content)."""
    text = read_upload_text(file)
    try:
        return check_text(text)
    except (PbnError, UsebioError) as error:
        raise UploadError([_("line %(line)s: %(message)s") % {"line": error.line, "message": error.message}])


def accept(federation, program: str, report: CheckReport, *, user, file_name: str = "") -> AcceptedProgram:
    """Record the program as accepted by the federation with its report; only a program that passed."""
    program = program.strip()
    errors = []
    if not program:
        errors.append(_("name the program and its version to record it as accepted"))
    if not report.passed:
        errors.append(_("a program whose scores differ from the portal's cannot be recorded as accepted"))
    if errors:
        raise UploadError(errors)
    return AcceptedProgram.objects.create(
        federation=federation,
        program=program,
        file_name=file_name[:255],
        report=as_json(report),
        accepted_by=user,
    )
