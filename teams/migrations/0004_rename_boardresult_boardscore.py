# teams.BoardResult is a computed row (the recompute writes it from the latest upload): it is named
# BoardScore, as bridge names its computed per-board rows, so BoardResult means an uploaded input only.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("teams", "0003_restore_source"),
    ]

    operations = [
        migrations.RenameModel(old_name="BoardResult", new_name="BoardScore"),
        migrations.AlterField(
            model_name="boardscore",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="board_scores", to="teams.match"
            ),
        ),
    ]
