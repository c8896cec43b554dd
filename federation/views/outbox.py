"""The outbox page: e-mails not (yet) sent, for federation staff (their federations' mail) and superusers (all)."""

from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..access import check, deny
from ..models import Notification
from ..predicates import staffed_federation_ids
from ..tasks import max_attempts

VIEW_OUTBOX = "federation.view_outbox"
PAGE_SIZE = 50


def visible_notifications(user):
    """The outbox rows `user` may read: all for a superuser, their federations' for staff, None otherwise.

    Mail whose federation cannot be told (e.g. an appeal step with no event federation) is the superusers'."""
    rows = Notification.objects.select_related("federation").order_by("-created_at", "-pk")
    if user.is_superuser:
        return rows
    federations = staffed_federation_ids(user)
    if not federations:
        return None
    return rows.filter(federation_id__in=federations)


@require_safe
def outbox(request):
    check(request, VIEW_OUTBOX, None)  # anonymous: the login page
    rows = visible_notifications(request.user)
    if rows is None:
        deny(request)
    state = request.GET.get("state", "")
    failed = rows.filter(sent_at__isnull=True, failed_at__isnull=False)
    pending = rows.filter(sent_at__isnull=True, failed_at__isnull=True)
    shown = {"failed": failed, "pending": pending}.get(state, rows.filter(sent_at__isnull=True))
    page = Paginator(shown, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "federation/outbox.html",
        {
            "page": page,
            "state": state if state in ("failed", "pending") else "",
            "failed_count": failed.count(),
            "pending_count": pending.count(),
            "max_attempts": max_attempts(),
        },
    )
