from django.contrib import admin

from . import models


@admin.register(models.Federation)
class FederationAdmin(admin.ModelAdmin):
    list_display = ["short_name", "name", "game"]


class CountyInline(admin.TabularInline):
    model = models.County
    extra = 0


@admin.register(models.Region)
class RegionAdmin(admin.ModelAdmin):
    list_display = ["name", "federation"]
    inlines = [CountyInline]


@admin.register(models.County)
class CountyAdmin(admin.ModelAdmin):
    list_display = ["name", "region"]


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "federation", "region", "city", "is_active"]
    list_filter = ["federation", "region", "is_active"]
    search_fields = ["name", "city"]


class MembershipInline(admin.TabularInline):
    model = models.Membership
    extra = 0
    autocomplete_fields = ["club"]


@admin.register(models.Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "birth_date", "gender", "user"]
    list_filter = ["gender", "citizenship", "memberships__federation"]
    search_fields = ["last_name", "first_name", "memberships__member_number", "email"]
    inlines = [MembershipInline]
    raw_id_fields = ["user"]


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["member_number", "person", "federation", "club", "is_active"]
    list_filter = ["federation", "is_active"]
    search_fields = ["member_number", "person__last_name"]
    raw_id_fields = ["person"]


@admin.register(models.Licence)
class LicenceAdmin(admin.ModelAdmin):
    list_display = ["person", "federation", "year", "number"]
    list_filter = ["year", "federation"]
    raw_id_fields = ["person"]


@admin.register(models.Suspension)
class SuspensionAdmin(admin.ModelAdmin):
    list_display = ["person", "federation", "starts_on", "ends_on"]
    raw_id_fields = ["person"]


@admin.register(models.Role)
class RoleAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "federation", "club", "event"]
    list_filter = ["kind"]
    raw_id_fields = ["user", "event", "granted_by"]


@admin.register(models.MemberRequest)
class MemberRequestAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "federation", "status", "created_at"]
    list_filter = ["status", "federation"]


@admin.register(models.Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["recipient", "subject", "created_at", "sent_at", "attempts"]
    readonly_fields = ["created_at"]
