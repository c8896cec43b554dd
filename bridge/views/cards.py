"""Convention cards (VSz 15): a pair's card page (its players and the director submit, the event's players and
the director read) and the card file, served only as a download with its sniffed type."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from federation.access import check, object_or_deny
from results.upload_input import ALLOWED_TYPES

from ..models import ConventionCard, Pair
from ..services import cards
from .common import visible

VIEW_CARD, SUBMIT_CARD = "bridge.view_card", "bridge.submit_card"


def pair_card(request, pk):
    pair = object_or_deny(
        request, Pair.objects.select_related("event", "player1", "player2"), VIEW_CARD, visible=visible, pk=pk
    )
    errors = []
    if request.method == "POST":
        check(request, SUBMIT_CARD, pair, visible=visible)
        try:
            if request.FILES.get("file"):
                cards.submit_file(pair, request.user, request.FILES["file"], request.POST.get("notes", ""))
            else:
                cards.submit_form(pair, request.user, request.POST)
        except ValidationError as error:
            errors = error.messages
        else:
            messages.success(request, _("Convention card saved."))
            return redirect("bridge_pair_card", pair.pk)
    card = cards.current(pair)
    wanted = cards.card_class(pair.event)
    return render(
        request,
        "bridge/convention_card.html",
        {
            "event": pair.event,
            "pair": pair,
            "card": card,
            "earlier": list(ConventionCard.objects.filter(pair=pair).order_by("-pk")[1:]),
            "wanted": ConventionCard.CardClass(wanted).label,
            "missing": cards.missing_fields(card, wanted) if card else [],
            "can_submit": request.user.has_perm(SUBMIT_CARD, pair),
            "errors": errors,
            "values": {
                name: request.POST.get(name, "") if errors else getattr(card, name, "")
                for name in cards.FORM_FIELDS
            },
        },
        status=400 if errors else 200,
    )


def card_file(request, pk):
    """Only as a download, with the sniffed type: an upload is never rendered by the browser as a page."""
    card = get_object_or_404(ConventionCard.objects.select_related("pair__event"), pk=pk)
    check(request, VIEW_CARD, card.pair, visible=visible)
    if not card.file:
        raise Http404
    try:
        handle = card.file.open("rb")
    except FileNotFoundError:
        raise Http404
    content_type = card.content_type if card.content_type in ALLOWED_TYPES else "application/octet-stream"
    response = FileResponse(handle, as_attachment=True, filename=card.original_name)
    response["Content-Type"] = content_type
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["Cache-Control"] = "private, no-store"
    return response
