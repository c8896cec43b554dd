from django.contrib import admin

from . import models


class ReadOnlyAdmin(admin.ModelAdmin):
    """Ledger and materialised rows are written by services only."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.AwardScheme)
class AwardSchemeAdmin(ReadOnlyAdmin):
    list_display = ["federation", "version", "valid_from", "created_at", "created_by"]
    list_filter = ["federation"]


@admin.register(models.AwardVersion)
class AwardVersionAdmin(ReadOnlyAdmin):
    list_display = ["event", "version", "reason", "is_current", "created_at"]
    list_filter = ["federation", "reason", "is_current"]
    search_fields = ["event__title"]


@admin.register(models.Award)
class AwardAdmin(ReadOnlyAdmin):
    list_display = ["date", "event", "person", "amount", "reason", "version", "is_current"]
    list_filter = ["federation", "is_current", "year"]
    search_fields = ["person__last_name", "event__title"]
    raw_id_fields = ["person", "event", "version"]


@admin.register(models.PrizePayment)
class PrizePaymentAdmin(admin.ModelAdmin):
    list_display = ["event", "entry_key", "person", "amount", "place", "paid_at"]
    raw_id_fields = ["event", "person"]
    readonly_fields = ["recorded_by"]

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        if not change:
            obj.recorded_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(models.PaymentResultChange)
class PaymentResultChangeAdmin(ReadOnlyAdmin):
    list_display = ["payment", "old_place", "new_place", "created_at"]


@admin.register(models.PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ["person", "federation", "display", "tables", "provisional"]
    list_filter = ["federation", "provisional"]
    search_fields = ["person__last_name"]


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["federation", "year", "semifinal_deadline", "final_deadline", "computed_at"]
    readonly_fields = ["computed_at", "computed_version"]


@admin.register(models.Qualification)
class QualificationAdmin(admin.ModelAdmin):
    list_display = ["season", "stage", "person", "rank", "via", "status", "deadline"]
    list_filter = ["season", "stage", "status"]
    raw_id_fields = ["person", "replaces"]


@admin.register(models.ListStamp)
class ListStampAdmin(ReadOnlyAdmin):
    list_display = ["federation", "kind", "year", "data_version", "needs_version", "computed_at", "rows"]
