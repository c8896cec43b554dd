from django.contrib import admin

from .models import Division, Entry, EntryMember, Event, EventChange, RegionNotice, Session


class SessionInline(admin.TabularInline):
    model = Session
    extra = 0


class DivisionInline(admin.TabularInline):
    model = Division
    extra = 0


class EventChangeInline(admin.TabularInline):
    model = EventChange
    extra = 0
    can_delete = False
    readonly_fields = ["at", "user", "action", "status_before", "status_after", "reason", "details"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["title", "federation", "club", "format", "event_class", "start_date", "status"]
    list_filter = ["federation", "format", "event_class", "status", "in_federation_calendar"]
    search_fields = ["title", "venue"]
    date_hierarchy = "start_date"
    raw_id_fields = ["created_by"]
    readonly_fields = ["published_at"]
    inlines = [SessionInline, DivisionInline, EventChangeInline]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["event", "name", "starts_at"]
    raw_id_fields = ["event"]


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ["event", "name", "order"]
    raw_id_fields = ["event"]


@admin.register(EventChange)
class EventChangeAdmin(admin.ModelAdmin):
    """History is read-only: no adding, changing or deleting from the admin either."""

    list_display = ["event", "action", "user", "at"]
    list_filter = ["action"]
    readonly_fields = ["event", "user", "at", "action", "status_before", "status_after", "reason", "details"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RegionNotice)
class RegionNoticeAdmin(admin.ModelAdmin):
    list_display = ["person", "region", "season", "board_consent", "recorded_at"]
    list_filter = ["season", "region", "board_consent"]
    raw_id_fields = ["person", "recorded_by"]

    def save_model(self, request, obj, form, change):
        if not obj.recorded_by_id:
            obj.recorded_by = request.user
        super().save_model(request, obj, form, change)


class EntryMemberInline(admin.TabularInline):
    model = EntryMember
    extra = 0
    raw_id_fields = ["person", "home_club"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "status", "division", "no_show", "fee_waived", "entered_at"]
    list_filter = ["status", "no_show", "by_organiser"]
    search_fields = ["team_name", "members__person__last_name", "event__title"]
    raw_id_fields = ["event", "division", "entered_by", "withdrawn_by"]
    inlines = [EntryMemberInline]


@admin.register(EntryMember)
class EntryMemberAdmin(admin.ModelAdmin):
    list_display = ["person", "entry", "position", "line", "confirmed_at"]
    raw_id_fields = ["entry", "person", "home_club"]
