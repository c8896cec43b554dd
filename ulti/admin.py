"""Admin of ulti events: settings and structure are editable; result versions and score sheets read-only."""

from django.contrib import admin

from .models import Group, Participant, Round, RoundUpload, ScoreSheet, Stage, UltiEvent


@admin.register(UltiEvent)
class UltiEventAdmin(admin.ModelAdmin):
    list_display = ["event", "unit_forints", "created_at"]
    search_fields = ["event__title"]
    raw_id_fields = ["event"]


class GroupInline(admin.TabularInline):
    model = Group
    extra = 0


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "kind", "system", "rounds"]
    list_filter = ["kind", "system"]
    search_fields = ["event__title"]
    raw_id_fields = ["event", "source"]
    inlines = [GroupInline]


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ["person", "stage", "group", "number", "line", "rating"]
    search_fields = ["person__last_name", "person__first_name", "stage__event__title"]
    raw_id_fields = ["stage", "group", "person", "entry"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "method", "repeats", "published_at"]
    list_filter = ["status", "method"]
    raw_id_fields = ["group", "generated_by", "edited_by"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Versions are append-only: the admin shows them and never changes them."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RoundUpload)
class RoundUploadAdmin(ReadOnlyAdmin):
    list_display = ["round", "number", "source", "uploaded_by", "uploaded_at", "note"]
    list_filter = ["source"]


@admin.register(ScoreSheet)
class ScoreSheetAdmin(ReadOnlyAdmin):
    list_display = ["table", "number", "entered_by", "entered_at"]
