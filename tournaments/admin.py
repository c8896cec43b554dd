from django.contrib import admin

from .models import Event


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["title", "federation", "club", "format", "start_date", "status"]
    list_filter = ["federation", "format", "status"]
    search_fields = ["title"]
