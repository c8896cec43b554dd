"""Computer dealing (VSz 21): the director makes a sealed set; after the start anyone may test any set."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from bridge.engine import dealing as engine
from bridge.engine.pbn.games import PbnError, read_games
from results.upload_input import UploadInputError, read_upload_text

from ..models import SessionStart
from ..services import dealing, versions
from .common import MANAGE, session_context, session_or_deny
from .forms import DealingForm, DealsFileForm


def dealing_page(request, pk):
    session = session_or_deny(request, pk, MANAGE)
    form = DealingForm(request.POST or None, initial={"boards": session.boards or None})
    if request.method == "POST" and form.is_valid():
        try:
            dealing.create_deal_set(session, form.cleaned_data["boards"], request.user)
        except ValueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("A new sealed set of deals was made."))
            return redirect("bridge_dealing", session.pk)
    sets = list(session.deal_sets.select_related("created_by"))
    return render(
        request,
        "bridge/dealing.html",
        session_context(request, session, form=form, sets=sets, started=session.has_started()),
    )


def refuse_if_sealed(session):
    """Deals, their statistics and hand records wait for the recorded start, not the editable start time."""
    if not session.has_started():
        raise PermissionDenied(_("The deals stay sealed until the session starts."))


@require_http_methods(["GET", "POST"])
def start_session(request, pk):
    """The director's "start the session": asks for confirmation (GET), records the start once (POST)."""
    session = session_or_deny(request, pk, MANAGE)
    refusal = None if session.has_started() else dealing.start_refusal(session)
    if request.method == "POST" and refusal:
        messages.error(request, refusal)
        return redirect("bridge_start_session", session.pk)
    if request.method == "POST":
        if dealing.record_start(session, SessionStart.Source.DIRECTOR, user=request.user):
            messages.success(request, _("The session has started: its deals are open to everybody."))
        else:
            messages.info(request, _("The session had already started."))
        return redirect("bridge_dealing", session.pk)
    return render(
        request,
        "bridge/start_session.html",
        session_context(
            request,
            session,
            started=session.has_started(),
            sealed=dealing.is_sealed(session),
            refusal=refusal,
        ),
    )


def _statistics_context(deals):
    stats = engine.deal_statistics(deals)
    return {"stats": stats, "tests": [t for t in stats.tests if t.applicable]}


def session_statistics(request, pk):
    """The statistics of a session's deals: like the deals themselves, refused before the start."""
    session = session_or_deny(request, pk)
    refuse_if_sealed(session)
    deals = dealing.deals_of_session(session, versions.latest_version(session))
    context = _statistics_context(list(deals.values())) if deals else {}
    return render(request, "bridge/statistics.html", session_context(request, session, **context))


def any_statistics(request):
    """Hand patterns and honours of any PBN file's deals against their theoretical frequencies."""
    form = DealsFileForm(request.POST or None, request.FILES or None)
    context = {"form": form}
    if request.method == "POST" and form.is_valid():
        try:
            games = read_games(read_upload_text(form.cleaned_data["file"]))
            deals = [g.value("deal") for g in games if g.value("deal")]
            if not deals:
                raise ValueError(_("the file has no deals"))
            context.update(_statistics_context(deals))
        except PbnError as error:
            form.add_error(
                None, _("line %(line)s: %(message)s") % {"line": error.line, "message": error.message}
            )
        except UploadInputError as error:
            form.add_error("file", error.message)
        except ValueError as error:
            form.add_error(None, str(error))
    return render(request, "bridge/statistics.html", context)
