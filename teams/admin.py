"""Admin of the teams app: options and teams are editable; uploads, line-ups and stored results are not
(a correction is a new version through the director's pages, and the stored rows are the task's)."""

from django.contrib import admin

from .models import LineUp, Match, MatchUpload, Round, Team, TeamEvent


@admin.register(TeamEvent)
class TeamEventAdmin(admin.ModelAdmin):
    list_display = ["event", "pairing_format", "rounds", "boards_per_match", "knockout_teams", "bye_vp"]
    list_filter = ["pairing_format"]
    raw_id_fields = ["event"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "start_number", "seed"]
    list_editable = ["seed"]
    raw_id_fields = ["event", "entry"]
    search_fields = ["name", "event__title"]


class MatchInline(admin.TabularInline):
    model = Match
    fields = ["table", "home", "away", "bracket", "flags", "explanation"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "kind", "status", "method", "boards"]
    list_filter = ["kind", "status"]
    readonly_fields = [
        "method",
        "explanation",
        "flags",
        "draw_seed",
        "brackets",
        "generated_by",
        "published_by",
        "published_at",
    ]
    inlines = [MatchInline]


class ReadOnly(admin.ModelAdmin):
    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(MatchUpload)
class MatchUploadAdmin(ReadOnly):
    list_display = ["match", "number", "source", "uploaded_by", "uploaded_at", "imps_only"]


@admin.register(LineUp)
class LineUpAdmin(ReadOnly):
    list_display = ["match", "number", "uploaded_by", "uploaded_at"]
