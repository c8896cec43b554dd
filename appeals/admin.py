"""Admin of the appeals app: settings and committees are edited here; cases only through their steps."""

from django.contrib import admin

from .models import (
    Appeal,
    Committee,
    CommitteeMember,
    Decision,
    DisciplinaryReport,
    FederationSettings,
    Measure,
    TimelineEntry,
)


@admin.register(FederationSettings)
class FederationSettingsAdmin(admin.ModelAdmin):
    list_display = ["federation", "committee_required", "anonymise_public", "second_instance_deposit"]


class CommitteeMemberInline(admin.TabularInline):
    model = CommitteeMember
    extra = 0
    raw_id_fields = ["user", "person", "added_by"]


@admin.register(Committee)
class CommitteeAdmin(admin.ModelAdmin):
    list_display = ["event", "formed_at"]
    raw_id_fields = ["event", "formed_by"]
    inlines = [CommitteeMemberInline]


class ReadOnlyAdmin(admin.ModelAdmin):
    """A case changes only through its services (each step is on the timeline), never in the admin."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class TimelineInline(admin.TabularInline):
    model = TimelineEntry
    fields = ["at", "action", "actor", "note"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class DecisionInline(admin.StackedInline):
    model = Decision
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Appeal)
class AppealAdmin(ReadOnlyAdmin):
    list_display = ["reference", "event", "board_number", "status", "deposit_outcome", "filed_at"]
    list_filter = ["status", "event__federation"]
    search_fields = ["event__title", "ruling"]
    inlines = [DecisionInline, TimelineInline]


@admin.register(Measure)
class MeasureAdmin(ReadOnlyAdmin):
    list_display = ["person", "kind", "event", "status", "taken_at"]
    list_filter = ["kind", "status"]


@admin.register(DisciplinaryReport)
class DisciplinaryReportAdmin(ReadOnlyAdmin):
    list_display = ["person", "federation", "event", "status", "reported_at"]
    list_filter = ["status", "federation"]
