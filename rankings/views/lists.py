"""The stored lists (never computed per request): the rankings index, a list page with its filters, CSV."""

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.query import query_int
from federation import spreadsheet
from federation.models import Club, Federation, Region
from results.page_cache import by_federation_code, cache_public_page

from ..engine.standings_list import place_label
from ..models import ListEntry, ListKind, Season
from ..services.lists import list_stamp, list_years
from ..services.state import needs_licence
from ..text import fold

PAGE_SIZE = 50


def index(request):
    federations = list(Federation.objects.all())
    seasons = Season.objects.select_related("federation").order_by("-year")[:6]
    return render(
        request,
        "rankings/index.html",
        {"federations": federations, "seasons": seasons, "year": timezone.localdate().year},
    )


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
            "xlsx_url": reverse(csv_name.replace("_csv", "_xlsx"), args=[federation.code])
            + ("?" + query.urlencode() if query else ""),
            "licence_filtered": needs_licence(federation, kind, year),
            "is_rating": kind == ListKind.RATING,
            "show_qualification": bool(stamp and stamp.counts.get("qualified")),
            "search_limited": filters.search and len(rows_source) >= SEARCH_LIMIT,
            "search_limit": SEARCH_LIMIT,
        },
    )


def ranking_csv(request, code, kind, fmt="csv"):
    """The list as a Hungarian spreadsheet: CSV (";" and decimal comma, with BOM) or XLSX."""
    federation = get_object_or_404(Federation, code=code)
    if kind == ListKind.RATING and federation.game != Federation.ULTI:
        raise Http404("no rating list")
    kind, year = _kind_year(request, kind)
    filters = ListFilters(request.GET)
    category = filters.category
    qs = filters.apply(ListEntry.objects.filter(federation=federation, kind=kind, year=year)).order_by(
        "position"
    )
    value_header = _("Rating") if kind == ListKind.RATING else _("Masterpoints")
    count_header = _("Rated tables") if kind == ListKind.RATING else _("Events")
    header = [_("Place"), _("Name"), _("Member number"), _("Club"), value_header, count_header]
    if kind == ListKind.RATING:
        header.append(_("Provisional"))
    if kind == ListKind.ALLTIME:
        header.append(_("Qualification"))

    def rows():
        for row in qs.iterator(chunk_size=2000):
            line = [
                _shown_place(row, category),
                row.name,
                row.member_number,
                row.club_name,
                int(row.total) if kind == ListKind.RATING else row.total,
                row.events,
            ]
            if kind == ListKind.RATING:
                line.append("P" if row.provisional else "")
            if kind == ListKind.ALLTIME:
                line.append(row.qualification)
            yield line

    label = "rating" if kind == ListKind.RATING else ("alltime" if kind == ListKind.ALLTIME else str(year))
    filename = f"{federation.code}-{label}"
    if fmt == "xlsx":
        return spreadsheet.xlsx_response(filename, header, rows(), sheet=value_header)
    return spreadsheet.csv_response(filename, header, rows())
