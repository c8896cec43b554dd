"""The search column of events, filled; a trigram GIN index on it on PostgreSQL (pg_trgm comes with
federation 0007; nothing on SQLite)."""

from django.db import migrations, models

from federation.engine.text import search_key


def fill(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    events = list(Event.objects.only("pk", "title", "venue"))
    for event in events:
        event.search_title = search_key(f"{event.title} {event.venue}")
    Event.objects.bulk_update(events, ["search_title"], batch_size=2000)


def trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS tournaments_event_search_trgm "
            "ON tournaments_event USING gin (search_title gin_trgm_ops)"
        )


def drop_trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS tournaments_event_search_trgm")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_entry_withdrawn_during_play"),
        ("federation", "0007_search_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="search_title",
            field=models.CharField(blank=True, editable=False, max_length=420),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(trigram_index, drop_trigram_index),
    ]
