"""Whole numbers read from the query string, kept within the range of what they are compared with.

A number beyond the 64-bit integers SQLite stores made the driver raise OverflowError deep in the query, a
500 (PostgreSQL answered an empty 200); a unicode digit such as "²" passed `str.isdigit()` and then failed
`int()`. Every integer a client sends in a query string goes through this module instead (issue #15):

* the API's django-filter filters: `BoundedFilterBackend` (settings.REST_FRAMEWORK) puts every FilterSet
  it uses, declared or generated from `filterset_fields`, under `BoundedFilterSetMixin`, which gives each
  integer filter the range of its column (of the primary key a model choice is looked up by, of the date
  part a `__year` / `__month` lookup compares): outside it, a 400 naming the limit;
* the same mixin for FilterSets that pages use (the calendar);
* `api_int` (API views that read a number by hand: a DRF 400) and `query_int` (pages: `BadQuery`, answered
  400 with the message by `federation.middleware.BadQueryMiddleware`).

The ranges are the portable ones (Django's base `integer_field_ranges`, PostgreSQL's), so SQLite and
PostgreSQL answer the same.
"""

from django import forms
from django.core.exceptions import BadRequest, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.translation import gettext as _
from django_filters import FilterSet
from django_filters.rest_framework import DjangoFilterBackend
from django_filters.utils import get_model_field
from rest_framework.exceptions import ValidationError as ApiValidationError

ID_RANGE = (1, BaseDatabaseOperations.integer_field_ranges["BigAutoField"][1])
DATE_PART_RANGES = {
    "year": (1, 9999),
    "iso_year": (1, 9999),
    "month": (1, 12),
    "day": (1, 31),
    "week": (1, 53),
    "week_day": (1, 7),
    "iso_week_day": (1, 7),
    "quarter": (1, 4),
    "hour": (0, 23),
    "minute": (0, 59),
    "second": (0, 59),
}


class BadQuery(BadRequest):
    """A query-string value a page cannot use: answered 400 with the message (BadQueryMiddleware)."""


def column_range(field) -> tuple[int, int] | None:
    """The integer range of a model field (a relation: of the field it points to); None if not integer."""
    if field is None:
        return None
    if field.is_relation:
        field = getattr(field, "target_field", None)
        if field is None:
            return None
    return BaseDatabaseOperations.integer_field_ranges.get(field.get_internal_type())


def check_range(value: int, low: int, high: int) -> None:
    """Django's own range messages (translated): "Ensure this value is less than or equal to N"."""
    MinValueValidator(low)(value)
    MaxValueValidator(high)(value)


def parse_int(raw, low: int, high: int) -> int | None:
    """None for a missing or empty value; the int; ValidationError for a non-number or outside low..high."""
    if raw is None or str(raw).strip() == "":
        return None
    text = str(raw).strip()
    if not text.isascii() or not text.lstrip("+-").isdigit():
        raise ValidationError(_("Enter a whole number."), code="invalid")
    value = int(text)
    check_range(value, low, high)
    return value


def id_or_none(raw) -> int | None:
    """An id a client sent (in a body, say), or None when it is not one that any row could have."""
    try:
        return parse_int(raw, *ID_RANGE)
    except ValidationError:
        return None


def api_int(request, name: str, low: int = ID_RANGE[0], high: int = ID_RANGE[1]) -> int | None:
    """An integer query parameter of an API view (an id unless told): a DRF 400 when it is not one."""
    try:
        return parse_int(request.query_params.get(name), low, high)
    except ValidationError as error:
        raise ApiValidationError({name: error.messages})


def query_int(params, name: str, low: int = ID_RANGE[0], high: int = ID_RANGE[1]) -> int | None:
    """An integer from a page's query string (`request.GET`; an id unless told): BadQuery, a 400, when it
    is not one."""
    try:
        return parse_int(params.get(name), low, high)
    except ValidationError as error:
        raise BadQuery(f"{name}: {' '.join(error.messages)}")


# --- django-filter ------------------------------------------------------------------------------------


def _filter_range(model, name, flt, field):
    if isinstance(field, forms.ModelChoiceField):  # also ModelMultipleChoiceField
        target = field.queryset.model
        key = target._meta.get_field(field.to_field_name) if field.to_field_name else target._meta.pk
        return column_range(key)
    if not isinstance(field, forms.DecimalField | forms.IntegerField | forms.FloatField):
        return None
    parts = (flt.lookup_expr or "").split("__")
    if parts[-1] in DATE_PART_RANGES:
        return DATE_PART_RANGES[parts[-1]]
    return column_range(get_model_field(model, flt.field_name)) if model is not None else None


def _bounded_choice(field, low, high):
    """Check the raw values' range before ModelChoiceField turns them into a query."""
    clean = field.clean

    def bounded_clean(value):
        values = value if isinstance(value, list | tuple) else [value]
        for raw in values:
            text = str(raw).strip() if raw is not None else ""
            if text.isascii() and text.lstrip("+-").isdigit():
                check_range(int(text), low, high)
        return clean(value)

    field.clean = bounded_clean


def bound_field(field, low: int, high: int) -> None:
    if isinstance(field, forms.ModelChoiceField):
        _bounded_choice(field, low, high)
        return
    # A narrower range set by the FilterSet itself (EventFilter's year) stays; this only adds the column's.
    field.validators = [*field.validators, MinValueValidator(low), MaxValueValidator(high)]


class BoundedFilterSetMixin:
    """Every integer filter of the FilterSet refuses a value outside its column's range (a form error)."""

    @property
    def form(self):
        if not hasattr(self, "_form"):
            form = super().form
            model = self._meta.model
            for name, flt in self.filters.items():
                field = form.fields.get(name)
                limits = _filter_range(model, name, flt, field) if field is not None else None
                if limits:
                    bound_field(field, *limits)
        return self._form


class BoundedFilterSet(BoundedFilterSetMixin, FilterSet):
    """The base of the project's FilterSets (and of those DRF generates from `filterset_fields`)."""


class BoundedFilterBackend(DjangoFilterBackend):
    """DjangoFilterBackend whose FilterSets, declared or generated, all have bounded integer filters."""

    filterset_base = BoundedFilterSet

    def get_filterset_class(self, view, queryset=None):
        filterset_class = super().get_filterset_class(view, queryset)
        if filterset_class is None or issubclass(filterset_class, BoundedFilterSetMixin):
            return filterset_class
        # A FilterSet declared on another base: bounded all the same (declare it on BoundedFilterSet).
        return type(f"Bounded{filterset_class.__name__}", (BoundedFilterSetMixin, filterset_class), {})
