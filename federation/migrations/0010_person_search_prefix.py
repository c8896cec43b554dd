"""On PostgreSQL a b-tree index on the people's search column in byte order (COLLATE "C"): the search's
first tier (names starting with the query, ``tournaments.services.search``) reads just the rows it shows in
that order, however common the name. Nothing on SQLite."""

from django.db import migrations

INDEX = "federation_person_search_prefix"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS {INDEX} ON federation_person ((search_name COLLATE "C"), id)'
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0009_personal_data_licences_member_requests"),
    ]

    operations = [migrations.RunPython(create, drop)]
