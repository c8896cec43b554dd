"""Scoring programs a federation has tested and accepted (VSz 26), each with the report of its test."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AcceptedProgram(models.Model):
    """One acceptance, append-only: who accepted which program and version, on which file and report."""

    federation = models.ForeignKey(
        "federation.Federation", on_delete=models.PROTECT, related_name="accepted_programs"
    )
    program = models.CharField(_("program and version"), max_length=100)
    file_name = models.CharField(_("file"), max_length=255, blank=True)
    report = models.JSONField(_("report"), default=dict)  # bridge.engine.program_check.as_json
    # The PDF report as it was when the program was accepted (kept, not re-drawn: the rules' text may change).
    report_pdf = models.BinaryField(_("PDF report"), blank=True, default=b"", editable=False)
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    accepted_at = models.DateTimeField(_("accepted at"), auto_now_add=True)

    class Meta:
        ordering = ["-accepted_at", "-pk"]
        verbose_name = _("accepted scoring program")
        verbose_name_plural = _("accepted scoring programs")

    def __str__(self) -> str:
        return self.program
