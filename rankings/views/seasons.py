"""The NUB season page, its staff actions (invite, recompute) and a player's answer to an invitation."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from federation.access import object_or_deny
from federation.models import Federation

from ..forms import InviteForm
from ..models import Qualification, Season, SeasonEntry, SeasonTeamEntry, Stage
from ..services import season as season_service
from ..services.season import open_confirmations, process_deadlines, recompute_season


def season(request, code, year):
    federation = get_object_or_404(Federation, code=code)
    season_obj = get_object_or_404(Season, federation=federation, year=year)
    entries = (
        SeasonEntry.objects.filter(season=season_obj).select_related("region").order_by("position", "name")
    )
    qualifier = [e for e in entries if e.stage == Stage.QUALIFIER and e.eligible]
    ineligible = [e for e in entries if e.stage == Stage.QUALIFIER and not e.eligible]
    semifinal = [e for e in entries if e.stage == Stage.SEMIFINAL and e.eligible]
    sport = [e for e in entries if e.stage == Stage.SPORT_ULTI]
    teams = list(
        SeasonTeamEntry.objects.filter(season=season_obj).order_by("region_name", "region_place_from", "name")
    )
    team_regions = {}
    for t in teams:
        team_regions.setdefault(t.region_name, []).append(t)
    invitations = {
        stage: list(
            Qualification.objects.filter(season=season_obj, stage=stage)
            .select_related("person", "replaces__person")
            .order_by("invited_at", "rank")
        )
        for stage in (Stage.SEMIFINAL, Stage.FINAL)
    }
    mine = []
    person = getattr(request.user, "person", None) if request.user.is_authenticated else None
    if person is not None:
        mine = [
            q
            for qs in invitations.values()
            for q in qs
            if q.person_id == person.pk and q.status == Qualification.INVITED
        ]
    can_manage = request.user.has_perm("rankings.manage_season", season_obj)
    # II. 10. (5): a shared place on a cut line is shown to the staff as a tie to resolve.
    ties = []
    for table, label in ((Stage.QUALIFIER, _("qualifiers")), (Stage.SEMIFINAL, _("semifinal"))):
        found = season_service.tie_of(season_obj, table)
        if found is not None:
            tie, rows = found
            ties.append({"table": table, "label": label, "tie": tie, "rows": rows})
    return render(
        request,
        "rankings/season.html",
        {
            "federation": federation,
            "season": season_obj,
            "qualifier": qualifier,
            "qualifier_cut": _last_qualified(qualifier),
            "reserve": [e for e in qualifier if e.status == SeasonEntry.RESERVE],
            "ineligible": ineligible,
            "semifinal": semifinal,
            "semifinal_cut": _last_qualified(semifinal),
            "semifinal_reserve": [e for e in semifinal if e.status == SeasonEntry.RESERVE],
            "team_regions": sorted(team_regions.items()),
            "sport": sport,
            "invitations": [(Stage(k).label, v) for k, v in invitations.items() if v],
            "mine": mine,
            "can_manage": can_manage,
            "ties": ties,
            "invite_form": InviteForm() if can_manage else None,
            "now": timezone.now(),
        },
    )


def _last_qualified(rows):
    last = None
    for row in rows:
        if row.status == SeasonEntry.QUALIFIED:
            last = row.pk
    return last


@require_POST
def season_invite(request, code, year):
    federation = get_object_or_404(Federation, code=code)
    season_obj = object_or_deny(request, Season, "rankings.manage_season", federation=federation, year=year)
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            created = open_confirmations(
                season_obj, form.cleaned_data["stage"], form.cleaned_data["deadline"]
            )
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("%(count)s players were invited.") % {"count": len(created)})
    else:
        messages.error(request, _("Give the stage and a valid deadline."))
    return redirect("rankings_season", code=code, year=year)


@require_POST
def season_tie(request, code, year):
    """The staff resolve a tie at a cut line (II. 10. (5)): who of the tied players goes on."""
    federation = get_object_or_404(Federation, code=code)
    season_obj = object_or_deny(request, Season, "rankings.manage_season", federation=federation, year=year)
    try:
        season_service.resolve_tie(
            request.user,
            season_obj,
            request.POST.get("table", ""),
            [pid for pid in request.POST.getlist("person") if pid.isdigit()],
            request.POST.get("reason", ""),
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("The tie is resolved; the season table was recomputed."))
    return redirect("rankings_season", code=code, year=year)


@require_POST
def season_recompute(request, code, year):
    federation = get_object_or_404(Federation, code=code)
    season_obj = object_or_deny(request, Season, "rankings.manage_season", federation=federation, year=year)
    recompute_season(season_obj.pk)
    process_deadlines(season=season_obj)
    messages.success(request, _("The season table was recomputed."))
    return redirect("rankings_season", code=code, year=year)


@login_required
@require_POST
def respond(request, pk, answer):
    qualification = object_or_deny(
        request,
        Qualification.objects.select_related("season__federation", "person"),
        "rankings.respond_qualification",
        pk=pk,
    )
    result = season_service.respond(qualification, accept=answer == "confirm")
    if result.status == Qualification.CONFIRMED:
        messages.success(request, _("Your place is confirmed."))
    elif result.status == Qualification.DECLINED:
        messages.info(request, _("You gave up your place; the next player on the reserve list is invited."))
    else:
        messages.error(request, _("The deadline has passed; the place went to the reserve list."))
    season_obj = qualification.season
    return redirect("rankings_season", code=season_obj.federation.code, year=season_obj.year)
