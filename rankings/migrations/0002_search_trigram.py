"""PostgreSQL: substring search in the stored lists through a pg_trgm GIN index (nothing on SQLite)."""

from django.db import migrations


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS list_search_trgm ON rankings_listentry USING gin (search_key gin_trgm_ops)"
    )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS list_search_trgm")


class Migration(migrations.Migration):
    dependencies = [("rankings", "0001_initial")]
    operations = [migrations.RunPython(create, drop)]
