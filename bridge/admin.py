"""Admin of bridge pair events: setup is editable; versions, standings and sets of deals are read-only
(results change only through new versions, and a sealed seed is never shown)."""

from django.contrib import admin

from . import models


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SectionInline(admin.TabularInline):
    model = models.Section
    extra = 0


@admin.register(models.PairEvent)
class PairEventAdmin(admin.ModelAdmin):
    list_display = ["event", "method", "scale", "rounding"]


@admin.register(models.PairSession)
class PairSessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "number", "boards", "published_at"]
    list_select_related = ["event", "announced"]
    raw_id_fields = ["event", "announced", "published_by"]
    inlines = [SectionInline]


@admin.register(models.Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ["display_name", "event", "entry"]
    raw_id_fields = ["event", "entry", "player1", "player2"]
    search_fields = ["name", "player1__last_name", "player2__last_name"]


@admin.register(models.SessionPair)
class SessionPairAdmin(admin.ModelAdmin):
    list_display = ["code", "direction", "pair", "section"]
    raw_id_fields = ["section", "pair"]


@admin.register(models.ResultVersion)
class ResultVersionAdmin(ReadOnlyAdmin):
    list_display = ["session", "number", "source", "uploaded_by", "uploaded_at", "note"]
    list_filter = ["source"]
    exclude = ["raw"]


@admin.register(models.CorrectionRequest)
class CorrectionRequestAdmin(ReadOnlyAdmin):
    list_display = ["session", "board", "status", "requested_by", "requested_at", "decided_by"]
    list_filter = ["status"]


@admin.register(models.Substitution)
class SubstitutionAdmin(ReadOnlyAdmin):
    list_display = ["session", "pair", "original", "substitute", "recorded_at"]


@admin.register(models.Withdrawal)
class WithdrawalAdmin(ReadOnlyAdmin):
    list_display = ["pair", "session", "recorded_at"]


@admin.register(models.Exclusion)
class ExclusionAdmin(ReadOnlyAdmin):
    list_display = ["pair", "scope", "session", "recorded_at"]


@admin.register(models.DealSet)
class DealSetAdmin(ReadOnlyAdmin):
    list_display = ["set_id", "session", "boards", "created_by", "created_at"]
    fields = ["set_id", "session", "boards", "created_by", "created_at"]


@admin.register(models.TableCode)
class TableCodeAdmin(ReadOnlyAdmin):
    list_display = ("code", "session", "section", "table", "created_by", "created_at")
    search_fields = ("code",)


@admin.register(models.TableEntry)
class TableEntryAdmin(ReadOnlyAdmin):
    """Append-only: what a table's phone sent, as sent (a correction is a new entry or a version)."""

    list_display = (
        "created_at",
        "code",
        "kind",
        "round",
        "board",
        "contract",
        "declarer",
        "score",
        "version",
    )
    list_filter = ("kind",)
    search_fields = ("code__code",)


@admin.register(models.RoundClock)
class RoundClockAdmin(ReadOnlyAdmin):
    list_display = ("session", "round", "started_at", "minutes", "screens_or_beginners", "started_by")
