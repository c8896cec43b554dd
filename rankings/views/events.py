"""An event's award versions, with the prize payments for those who may see them."""

from django.http import Http404
from django.shortcuts import render

from config.query import id_or_none

from ..models import AwardVersion, PaymentResultChange, PrizePayment


def event_awards(request, event_id):
    if id_or_none(event_id) is None:  # beyond any id (config.query): no such event, not an overflow
        raise Http404("no awards")
    versions = list(
        AwardVersion.objects.filter(event_id=event_id)
        .select_related("event", "scheme", "federation")
        .prefetch_related("awards__person")
        .order_by("-version")
    )
    if not versions:
        raise Http404("no awards")
    event = versions[0].event
    payments = changes = None
    if request.user.has_perm("rankings.view_prize_payments", event):
        payments = PrizePayment.objects.filter(event=event).select_related("person")
        changes = PaymentResultChange.objects.filter(payment__event=event).select_related(
            "payment", "award_version"
        )
    return render(
        request,
        "rankings/event.html",
        {"event": event, "versions": versions, "payments": payments, "changes": changes},
    )
