"""A read-only page of the audit log for federation staff (their federations' rows) and superusers (all)."""

from auditlog.models import LogEntry
from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from ..access import check, deny
from ..audit import VIEW_AUDIT_LOG
from ..predicates import staffed_federation_ids

PAGE_SIZE = 50
ACTION_LABELS = {
    LogEntry.Action.CREATE: _("created"),
    LogEntry.Action.UPDATE: _("changed"),
    LogEntry.Action.DELETE: _("deleted"),
    LogEntry.Action.ACCESS: _("viewed"),
}


def _changes(entry) -> list[tuple[str, str, str]]:
    """(field's verbose name, before, after) for display; the row id of a new record says nothing."""

    def shown(value):
        if value in (None, "None", ""):
            return "–"
        return {"True": _("yes"), "False": _("no")}.get(str(value), str(value))

    model = entry.content_type.model_class()
    if model is None:  # the model was removed since: show the stored names as they are
        changes, own = entry.changes_dict, None
    else:
        changes = entry.changes_display_dict
        # Rows written before the registration was narrowed also hold reverse relations: not columns.
        own = {str(f.verbose_name) for f in model._meta.concrete_fields if not f.primary_key}
    return [
        (capfirst(str(name)), shown(before), shown(after))
        for name, (before, after) in changes.items()
        if own is None or str(name) in own
    ]


def visible_log_entries(user):
    """The audit rows `user` may read: all for a superuser, their federations' for staff, none otherwise."""
    entries = LogEntry.objects.select_related("actor", "content_type").order_by("-timestamp", "-pk")
    if user.is_superuser:
        return entries
    federations = staffed_federation_ids(user)
    if not federations:
        return None
    return entries.filter(additional_data__federation__in=federations)


@require_safe
def audit_log(request):
    check(request, VIEW_AUDIT_LOG, None)  # anonymous: the login page
    entries = visible_log_entries(request.user)
    if entries is None:
        deny(request)
    model = request.GET.get("model", "")
    if model:
        app_label, _, model_name = model.partition(".")
        entries = entries.filter(content_type__app_label=app_label, content_type__model=model_name)
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("page"))
    for entry in page:
        entry.action_label = ACTION_LABELS.get(entry.action, entry.get_action_display())
        entry.changes_shown = _changes(entry)
        entry.is_creation = entry.action == LogEntry.Action.CREATE  # "before" is always empty then
    return render(request, "federation/audit_log.html", {"page": page, "model": model})
