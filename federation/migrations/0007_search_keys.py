"""The search columns of people and clubs, filled; on PostgreSQL pg_trgm and trigram GIN indexes on them
(nothing on SQLite, where the search falls back to LIKE on the same folded columns)."""

from django.db import migrations, models

from federation.engine.text import search_key

TRGM_INDEXES = [
    ("federation_person_search_trgm", "federation_person", "search_name"),
    ("federation_club_search_trgm", "federation_club", "search_name"),
]


def fill(apps, schema_editor):
    Person = apps.get_model("federation", "Person")
    Club = apps.get_model("federation", "Club")
    batch = []
    for person in Person.objects.only("pk", "first_name", "last_name").iterator(chunk_size=2000):
        person.search_name = search_key(f"{person.last_name} {person.first_name}")
        batch.append(person)
        if len(batch) >= 2000:
            Person.objects.bulk_update(batch, ["search_name"])
            batch = []
    Person.objects.bulk_update(batch, ["search_name"])
    clubs = list(Club.objects.all())
    for club in clubs:
        club.search_name = search_key(" ".join(filter(None, [club.name, club.short_name, club.city])))
    Club.objects.bulk_update(clubs, ["search_name"])


def trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, table, column in TRGM_INDEXES:
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {table} USING gin ({column} gin_trgm_ops)")


def drop_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _table, _column in TRGM_INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0006_person_mail_to"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="search_name",
            field=models.CharField(blank=True, editable=False, max_length=260),
        ),
        migrations.AddField(
            model_name="person",
            name="search_name",
            field=models.CharField(blank=True, editable=False, max_length=201),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(trigram_indexes, drop_trigram_indexes),
    ]
