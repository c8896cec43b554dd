"""The calendar filters, shared by the pages, the API and the feeds."""

import django_filters
from django import forms
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.query import BoundedFilterSet
from federation.models import Club, Federation, Region

from .models import Event


class EventFilter(BoundedFilterSet):
    federation = django_filters.ModelChoiceFilter(
        label=_("Federation"), queryset=Federation.objects.all(), to_field_name="code", empty_label=_("all")
    )
    region = django_filters.ModelChoiceFilter(
        label=_("Region"), queryset=Region.objects.all(), method="filter_region", empty_label=_("all")
    )
    club = django_filters.ModelChoiceFilter(
        label=_("Club"), queryset=Club.objects.filter(is_active=True), empty_label=_("all")
    )
    # Not "format": DRF reads that query parameter as the response format.
    event_format = django_filters.ChoiceFilter(
        label=_("Format"), field_name="format", choices=Event.Format.choices, empty_label=_("all")
    )
    event_class = django_filters.ChoiceFilter(
        label=_("Event class"), choices=Event.EventClass.choices, empty_label=_("all")
    )
    division = django_filters.CharFilter(label=_("Division"), method="filter_division")
    open = django_filters.BooleanFilter(
        label=_("Open for entry"), method="filter_open", widget=forms.CheckboxInput
    )
    # Bounded: a year outside 1..9999 is a clear 400, not a date error deep in the query.
    year = django_filters.NumberFilter(
        label=_("Year"), field_name="start_date", lookup_expr="year", min_value=1900, max_value=2999
    )
    month = django_filters.NumberFilter(label=_("Month"), field_name="start_date", lookup_expr="month")

    class Meta:
        model = Event
        fields = [
            "federation",
            "region",
            "club",
            "event_format",
            "event_class",
            "division",
            "open",
            "year",
            "month",
        ]

    def filter_region(self, queryset, name, value):
        return queryset.filter(Q(region=value) | Q(club__region=value)) if value else queryset

    def filter_division(self, queryset, name, value):
        value = (value or "").strip()
        return queryset.filter(divisions__name__icontains=value).distinct() if value else queryset

    def filter_open(self, queryset, name, value):
        if not value:
            return queryset
        now = timezone.now()
        return queryset.filter(status=Event.Status.APPROVED, start_date__gte=timezone.localdate(now)).filter(
            Q(entry_deadline__isnull=True) | Q(entry_deadline__gt=now)
        )


class CalendarFilter(EventFilter):
    """The calendar page takes the year and month from its address, not from the filter form."""

    class Meta(EventFilter.Meta):
        fields = ["federation", "region", "club", "event_format", "event_class", "division", "open"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.filters.pop("year")
        self.filters.pop("month")


class ResultsFilter(EventFilter):
    """The results index: by year, federation, club and format (only the formats that have results pages)."""

    class Meta(EventFilter.Meta):
        fields = ["year", "federation", "club", "event_format"]

    def __init__(self, *args, formats=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("region", "event_class", "division", "open", "month"):
            self.filters.pop(name)
        scored = [choice for choice in Event.Format.choices if choice[0] in formats]
        # A new filter, not the shared one's choices changed: a declared filter's form field is cached on it
        # (the API schema builds it), and a deep copy would carry the cached field with every format.
        self.filters["event_format"] = django_filters.ChoiceFilter(
            label=_("Format"), field_name="format", choices=scored, empty_label=_("all")
        )
