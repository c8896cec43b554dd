"""Bridge individual events: the standings, the travellers, a player's boards, and the director's upload
and publication. Every page loads the event through `federation.access` with the permission checked on
its `IndividualEvent` (the published results of a public event for everybody, the rest for its director
and its federation's staff)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.query import column_range, query_int
from federation.access import check
from results.page_cache import by_event, cache_public_page
from results.upload_input import UploadInputError
from tournaments.models import Event

from ..models import IndividualBoardScore, IndividualEvent, IndividualVersion
from ..services import individual, individual_pages, uploads
from .common import MANAGE, VIEW, visible
from .forms import IndividualUploadForm


def individual_or_deny(request, pk, perm=VIEW) -> IndividualEvent:
    """The event's individual scoring row (unsaved when nothing is uploaded yet) if the user has `perm`."""
    event = get_object_or_404(
        Event.objects.select_related("federation", "club"), pk=pk, format=Event.Format.INDIVIDUAL
    )
    found = IndividualEvent.objects.filter(event=event).first() or IndividualEvent(event=event)
    check(request, perm, found, visible=visible)
    return found


def _context(request, setup: IndividualEvent, tab: str, **extra) -> dict:
    event = setup.event
    can_manage = request.user.has_perm(MANAGE, setup)
    return {
        "event": event,
        "setup": setup,
        "tab": tab,
        "can_manage": can_manage,
        "processing": individual_pages.processing(event.pk),
        "recompute_error": individual_pages.recompute_error(event.pk) if can_manage else "",
        **extra,
    }


@cache_public_page(by_event)
def standings(request, pk):
    setup = individual_or_deny(request, pk)
    rows, earned = individual_pages.standings(setup.event)
    return render(
        request,
        "bridge/individual.html",
        _context(
            request,
            setup,
            "standings",
            rows=rows,
            earned=earned,
            version=individual_pages.version_shown(setup.event),
        ),
    )


@cache_public_page(by_event, params=("board",))
def boards(request, pk):
    setup = individual_or_deny(request, pk)
    board = query_int(request.GET, "board", *column_range(IndividualBoardScore._meta.get_field("board")))
    return render(
        request,
        "bridge/individual_boards.html",
        _context(
            request,
            setup,
            "boards",
            travellers=individual_pages.travellers(setup.event, board),
            boards=individual_pages.boards_of(setup.event),
        ),
    )


@cache_public_page(by_event)
def player(request, pk, number):
    setup = individual_or_deny(request, pk)
    found = individual_pages.players_of(setup.event).get(number)
    if found is None:
        raise Http404
    return render(
        request,
        "bridge/individual_player.html",
        _context(
            request, setup, "standings", player=found, rows=individual_pages.score_card(setup.event, number)
        ),
    )


def upload(request, pk):
    setup = individual_or_deny(request, pk, MANAGE)
    form = IndividualUploadForm(request.POST or None, request.FILES or None)
    errors = []
    if request.method == "POST" and form.is_valid():
        if setup.pk is None:
            setup = individual.setup_for(setup.event)
        try:
            version = uploads.submit(
                setup,
                form.cleaned_data["format"],
                user=request.user,
                file=form.cleaned_data["file"],
                note=form.cleaned_data["note"],
            )
        except (uploads.UploadError, UploadInputError) as error:
            errors = error.messages
        else:
            messages.success(
                request,
                _("Version %(number)s saved; the standings are being computed.") % {"number": version.number},
            )
            return redirect("bridge_individual", setup.event_id)
    versions = (
        IndividualVersion.objects.filter(event=setup.event).select_related("uploaded_by").order_by("-number")
        if setup.pk
        else []
    )
    return render(
        request,
        "bridge/individual_upload.html",
        _context(request, setup, "upload", form=form, errors=errors, versions=versions),
        status=400 if errors else 200,
    )


@require_POST
def publish(request, pk):
    setup = individual_or_deny(request, pk, MANAGE)
    if setup.pk is None:
        messages.error(request, _("there are no results to publish"))
        return redirect("bridge_individual", setup.event_id)
    try:
        individual.publish(setup, request.user)
    except individual.IndividualSetupError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Results published."))
    return redirect("bridge_individual", setup.event_id)
