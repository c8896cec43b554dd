"""Pages of the rankings: stored lists (never computed per request), player pages, schemes, seasons."""

import csv
import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from config.query import id_or_none, query_int
from federation.models import Club, Federation, Person, Region
from results.page_cache import by_federation_code, cache_public_page

from . import charts
from .engine import awards as award_engine
from .engine import rating as rating_engine
from .engine.standings_list import place_label
from .forms import (
    ClassRuleFormSet,
    InviteForm,
    QualificationFormSet,
    SchemeMetaForm,
    rules_from_forms,
    scheme_initial,
)
from .models import (
    AwardScheme,
    AwardVersion,
    ListEntry,
    ListKind,
    PaymentResultChange,
    PlayerRating,
    PrizePayment,
    Qualification,
    Season,
    SeasonEntry,
    SeasonTeamEntry,
    Stage,
)
from .services import season as season_service
from .services.history import award_history, rating_history, superseded_awards
from .services.lists import list_stamp, list_years
from .services.schemes import change_scheme, current_scheme
from .services.season import open_confirmations, process_deadlines, recompute_season
from .services.state import needs_licence
from .text import fold

PAGE_SIZE = 50


def index(request):
    federations = list(Federation.objects.all())
    seasons = Season.objects.select_related("federation").order_by("-year")[:6]
    return render(
        request,
        "rankings/index.html",
        {"federations": federations, "seasons": seasons, "year": timezone.localdate().year},
    )


# --- Lists ------------------------------------------------------------------------------------------------


SEARCH_LIMIT = 5000
CATEGORY_POSITION = {
    "": "position",
    "junior": "age_position",
    "senior": "age_position",
    "women": "women_position",
}
CATEGORIES = [
    ("", gettext_lazy("everybody")),
    ("junior", gettext_lazy("junior")),
    ("senior", gettext_lazy("senior")),
    ("women", gettext_lazy("women")),
]
CHOICES_TTL = 300  # seconds the club and region options of the filter are cached


class _PositionRange:
    """A whole list (or one category of it) paged by stored positions: no COUNT, no OFFSET."""

    def __init__(self, qs, field, total):
        self.qs, self.field, self.total = qs, field, total

    def count(self):
        return self.total

    def __len__(self):
        return self.total

    def __getitem__(self, window):
        lo, hi = window.start or 0, window.stop
        return list(
            self.qs.filter(**{f"{self.field}__gt": lo, f"{self.field}__lte": hi}).order_by(self.field)
        )


class _Positions:
    """Rows given by a sorted list of positions (search results): one query per page."""

    def __init__(self, qs, positions):
        self.qs, self.positions = qs, positions

    def count(self):
        return len(self.positions)

    def __len__(self):
        return len(self.positions)

    def __getitem__(self, window):
        return list(self.qs.filter(position__in=self.positions[window]).order_by("position"))


def _choices(federation):
    """(clubs, regions) of a federation as (id, name) pairs, cached for a few minutes."""
    key = f"rankings:choices:{federation.pk}"
    cached = cache.get(key)
    if cached is None:
        cached = (
            [
                (str(pk), name)
                for pk, name in Club.objects.filter(federation=federation)
                .order_by("name")
                .values_list("pk", "name")
            ],
            [
                (str(pk), name)
                for pk, name in Region.objects.filter(federation=federation)
                .order_by("name")
                .values_list("pk", "name")
            ],
        )
        cache.set(key, cached, CHOICES_TTL)
    return cached


def _id(params, name):
    """A club or region id from the query string; a 400 naming it when it is not an id (config.query)."""
    return query_int(params, name)


class ListFilters:
    """The list filters read from the query string (no Form: the list page must stay cheap)."""

    def __init__(self, params):
        self.club = _id(params, "club")
        self.region = _id(params, "region")
        category = params.get("category") or ""
        self.category = category if category in CATEGORY_POSITION else ""
        self.raw_q = (params.get("q") or "")[:100]
        self.search = fold(self.raw_q)

    @property
    def narrowed(self):
        return self.club is not None or self.region is not None

    def apply(self, qs):
        if self.club is not None:
            qs = qs.filter(club_id=self.club)
        if self.region is not None:
            qs = qs.filter(region_id=self.region)
        if self.category in ("junior", "senior"):
            qs = qs.filter(age_category=self.category)
        elif self.category == "women":
            qs = qs.filter(is_female=True)
        if self.search:
            qs = qs.filter(search_key__contains=self.search)
        return qs

    def rows(self, qs, stamp):
        """Something the Paginator can page: by stored positions whenever possible."""
        if self.search:
            positions = list(qs.order_by("position").values_list("position", flat=True)[:SEARCH_LIMIT])
            return _Positions(qs, positions)
        if not self.narrowed and stamp is not None and stamp.counts:
            return _PositionRange(
                qs, CATEGORY_POSITION[self.category], stamp.counts.get(self.category or "all", 0)
            )
        return qs.order_by("position")


def _select(name, choices, selected):
    options = "".join(
        f'<option value="{escape(value)}"{" selected" if value == selected else ""}>{escape(label)}</option>'
        for value, label in choices
    )
    return mark_safe(f'<select name="{name}" id="id_{name}">{options}</select>')  # every value is escaped


def _filter_fields(request, federation, years, year_value):
    """The filter form as plain HTML (values and labels escaped)."""
    clubs, regions = _choices(federation)
    empty = [("", "---------")]
    get = request.GET.get
    fields = []
    if years:
        choices = [(str(y), str(y)) for y in years] + [("all", _("all-time (örök)"))]
        fields.append(("year", _("Year"), _select("year", choices, year_value)))
    fields.append(("club", _("Club"), _select("club", empty + clubs, get("club", ""))))
    if regions:
        fields.append(("region", _("Region"), _select("region", empty + regions, get("region", ""))))
    categories = [(v, str(label)) for v, label in CATEGORIES]
    fields.append(("category", _("Category"), _select("category", categories, get("category", ""))))
    fields.append(
        (
            "q",
            _("Name or member number"),
            format_html('<input type="text" name="q" id="id_q" value="{}" maxlength="100">', get("q", "")),
        )
    )
    return [{"id": f"id_{name}", "label": label, "html": html} for name, label, html in fields]


def _shown_place(row, category):
    if category in ("junior", "senior"):
        return place_label(row.age_place_from, row.age_place_to)
    if category == "women" and row.women_place_from is not None:
        return place_label(row.women_place_from, row.women_place_to)
    return place_label(row.place_from, row.place_to)


def _kind_year(request, kind):
    if kind == ListKind.RATING:
        return ListKind.RATING, 0
    raw = request.GET.get("year") or str(timezone.localdate().year)
    if raw == "all":
        return ListKind.ALLTIME, 0
    try:
        year = int(raw)
    except ValueError:
        raise Http404("year")
    if not 1900 <= year <= 2999:
        raise Http404("year")
    return ListKind.ANNUAL, year


@cache_public_page(by_federation_code, params=("year", "club", "region", "category", "page"))
def ranking_list(request, code, kind):
    federation = get_object_or_404(Federation, code=code)
    if kind == ListKind.RATING and federation.game != Federation.ULTI:
        raise Http404("no rating list")
    kind, year = _kind_year(request, kind)
    filters = ListFilters(request.GET)
    qs = filters.apply(ListEntry.objects.filter(federation=federation, kind=kind, year=year))
    stamp = list_stamp(federation, kind, year)
    rows_source = filters.rows(qs, stamp)
    page = Paginator(rows_source, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = list(page.object_list)
    for row in rows:
        row.shown_place = _shown_place(row, filters.category)
    query = request.GET.copy()
    query.pop("page", None)
    csv_name = "rankings_rating_csv" if kind == ListKind.RATING else "rankings_masterpoints_csv"
    years = list_years(federation) if kind != ListKind.RATING else ()
    return render(
        request,
        "rankings/list.html",
        {
            "federation": federation,
            "kind": kind,
            "kind_label": ListKind(kind).label,
            "year": year,
            "filters": _filter_fields(
                request, federation, years, str(year) if kind == ListKind.ANNUAL else "all"
            ),
            "page": page,
            "rows": rows,
            "player_url": reverse("rankings_player", args=[federation.code, 0])[:-2],
            "query": query.urlencode(),
            "stamp": stamp,
            "csv_url": reverse(csv_name, args=[federation.code]) + ("?" + query.urlencode() if query else ""),
            "licence_filtered": needs_licence(federation, kind, year),
            "is_rating": kind == ListKind.RATING,
            "show_qualification": bool(stamp and stamp.counts.get("qualified")),
            "search_limited": filters.search and len(rows_source) >= SEARCH_LIMIT,
            "search_limit": SEARCH_LIMIT,
        },
    )


class _Echo:
    def write(self, value):
        return value


def ranking_csv(request, code, kind):
    federation = get_object_or_404(Federation, code=code)
    if kind == ListKind.RATING and federation.game != Federation.ULTI:
        raise Http404("no rating list")
    kind, year = _kind_year(request, kind)
    filters = ListFilters(request.GET)
    category = filters.category
    qs = filters.apply(ListEntry.objects.filter(federation=federation, kind=kind, year=year)).order_by(
        "position"
    )
    writer = csv.writer(_Echo())
    value_header = _("Rating") if kind == ListKind.RATING else _("Masterpoints")
    count_header = _("Rated tables") if kind == ListKind.RATING else _("Events")
    header = [_("Place"), _("Name"), _("Member number"), _("Club"), value_header, count_header]
    if kind == ListKind.RATING:
        header.append(_("Provisional"))
    if kind == ListKind.ALLTIME:
        header.append(_("Qualification"))

    def rows():
        yield "\ufeff" + writer.writerow(header)
        for row in qs.iterator(chunk_size=2000):
            line = [
                _shown_place(row, category),
                row.name,
                row.member_number,
                row.club_name,
                str(int(row.total)) if kind == ListKind.RATING else str(row.total),
                row.events,
            ]
            if kind == ListKind.RATING:
                line.append("P" if row.provisional else "")
            if kind == ListKind.ALLTIME:
                line.append(row.qualification)
            yield writer.writerow(line)

    label = "rating" if kind == ListKind.RATING else ("alltime" if kind == ListKind.ALLTIME else str(year))
    response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{federation.code}-{label}.csv"'
    return response


# --- Player page ------------------------------------------------------------------------------------------


def player(request, code, person_id):
    federation = get_object_or_404(Federation, code=code)
    person = get_object_or_404(Person, pk=person_id)
    history = award_history(person, federation)
    year = timezone.localdate().year
    positions = {
        (e.kind, e.year): e
        for e in ListEntry.objects.filter(person=person, federation=federation).filter(year__in=[0, year])
    }
    mp_chart = ""
    if history:
        points = [(history[0].date - datetime.timedelta(days=1), 0)] + [
            (a.date, a.running_total) for a in history
        ]
        mp_chart = mark_safe(charts.step_chart(points, title=_("Running total of masterpoints")))
    rating = PlayerRating.objects.filter(person=person, federation=federation).first()
    ratings = list(rating_history(person, federation)) if federation.game == Federation.ULTI else []
    rating_chart = ""
    if ratings:
        rating_chart = mark_safe(  # charts escapes every text it writes
            charts.step_chart(
                [(r.date, r.display) for r in ratings],
                title=_("Rating after each event"),
                step=False,
                start_at_zero=False,
            )
        )
    membership = person.memberships.filter(federation=federation).select_related("club").first()
    return render(
        request,
        "rankings/player.html",
        {
            "federation": federation,
            "person": person,
            "membership": membership,
            "history": list(reversed(history)),
            "total": history[-1].running_total if history else 0,
            "superseded": superseded_awards(person, federation)[:50],
            "annual": positions.get((ListKind.ANNUAL, year)),
            "alltime": positions.get((ListKind.ALLTIME, 0)),
            "rating_entry": positions.get((ListKind.RATING, 0)),
            "rating": rating,
            "ratings": list(reversed(ratings)),
            "mp_chart": mp_chart,
            "rating_chart": rating_chart,
            "year": year,
            "provisional_tables": rating_engine.PROVISIONAL_TABLES,
        },
    )


# --- Award scheme -----------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def scheme(request, code):
    federation = get_object_or_404(Federation, code=code)
    current = current_scheme(federation)
    can_edit = request.user.has_perm("rankings.change_scheme", federation)
    classes, levels = scheme_initial(current)
    class_formset = qualification_formset = meta = None
    if can_edit:
        data = request.POST if request.method == "POST" else None
        class_formset = ClassRuleFormSet(
            data, initial=classes, prefix="cls", form_kwargs={"game": federation.game}
        )
        qualification_formset = QualificationFormSet(data, initial=levels, prefix="qual")
        meta = SchemeMetaForm(data)
        if request.method == "POST":
            if class_formset.is_valid() and qualification_formset.is_valid() and meta.is_valid():
                rules = rules_from_forms(class_formset, qualification_formset)
                try:
                    new = change_scheme(
                        federation,
                        rules,
                        meta.cleaned_data["valid_from"],
                        meta.cleaned_data["note"],
                        request.user,
                    )
                except award_engine.SchemeError as error:
                    messages.error(request, str(error))
                else:
                    messages.success(
                        request,
                        _("Version %(version)s saved; the events it governs are being re-awarded.")
                        % {"version": new.version},
                    )
                    return redirect("rankings_scheme", code=federation.code)
    elif request.method == "POST":
        raise PermissionDenied
    rule_rows = []
    engine_scheme = current.scheme
    for name, rule in sorted(engine_scheme.classes.items()):
        examples = []
        for size in (12, 24, 48):
            k = award_engine.scoring_places(rule, size)
            examples.append((size, k, round(float(award_engine.place_points(rule, size, 1)), 2) if k else 0))
        rule_rows.append((name, rule, examples))
    return render(
        request,
        "rankings/scheme.html",
        {
            "federation": federation,
            "current": current,
            "rule_rows": rule_rows,
            "levels": engine_scheme.qualifications,
            "versions": AwardScheme.objects.filter(federation=federation).select_related("created_by"),
            "can_edit": can_edit,
            "class_formset": class_formset,
            "qualification_formset": qualification_formset,
            "meta": meta,
        },
    )


# --- Events: award versions -------------------------------------------------------------------------------


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


# --- NUB season -------------------------------------------------------------------------------------------


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
    season_obj = get_object_or_404(Season, federation=federation, year=year)
    if not request.user.has_perm("rankings.manage_season", season_obj):
        raise PermissionDenied
    form = InviteForm(request.POST)
    if form.is_valid():
        created = open_confirmations(season_obj, form.cleaned_data["stage"], form.cleaned_data["deadline"])
        messages.success(request, _("%(count)s players were invited.") % {"count": len(created)})
    else:
        messages.error(request, _("Give the stage and a valid deadline."))
    return redirect("rankings_season", code=code, year=year)


@require_POST
def season_recompute(request, code, year):
    federation = get_object_or_404(Federation, code=code)
    season_obj = get_object_or_404(Season, federation=federation, year=year)
    if not request.user.has_perm("rankings.manage_season", season_obj):
        raise PermissionDenied
    recompute_season(season_obj.pk)
    process_deadlines(season=season_obj)
    messages.success(request, _("The season table was recomputed."))
    return redirect("rankings_season", code=code, year=year)


@login_required
@require_POST
def respond(request, pk, answer):
    qualification = get_object_or_404(
        Qualification.objects.select_related("season__federation", "person"), pk=pk
    )
    if not request.user.has_perm("rankings.respond_qualification", qualification):
        raise PermissionDenied
    result = season_service.respond(qualification, accept=answer == "confirm")
    if result.status == Qualification.CONFIRMED:
        messages.success(request, _("Your place is confirmed."))
    elif result.status == Qualification.DECLINED:
        messages.info(request, _("You gave up your place; the next player on the reserve list is invited."))
    else:
        messages.error(request, _("The deadline has passed; the place went to the reserve list."))
    season_obj = qualification.season
    return redirect("rankings_season", code=season_obj.federation.code, year=season_obj.year)
