# The rating history, moved here from games (copied from its tables, which games 0006 drops).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def copy(apps, schema_editor):
    """Copy the rows (new ids: copying ids would leave PostgreSQL's sequences behind), then
    put back the stored times that auto_now_add replaced."""
    for name in ("RatingChange", "BotRatingChange"):
        Old = apps.get_model("games", name)
        New = apps.get_model("rankings", name)
        fields = [f.attname for f in Old._meta.concrete_fields if f.attname != "id"]
        old_rows = list(Old.objects.all())
        New.objects.bulk_create([New(**{f: getattr(row, f) for f in fields}) for row in old_rows])
        for row in old_rows:
            New.objects.filter(game_id=row.game_id, user_id=row.user_id).update(
                created_at=row.created_at)


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("games", "0005_seats_cleanup"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="RatingChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("before", models.IntegerField()),
                ("after", models.IntegerField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rating_changes", to="games.game")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rating_changes", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("game", "user"), name="rankings_rating_change_once")],
            },
        ),
        migrations.CreateModel(
            name="BotRatingChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("level", models.CharField(max_length=8)),
                ("bot_rating", models.IntegerField()),
                ("score", models.FloatField()),
                ("before", models.IntegerField()),
                ("after", models.IntegerField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("game", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="bot_rating_change", to="games.game")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="bot_rating_changes", to=settings.AUTH_USER_MODEL)),
            ],
            options={"ordering": ["-created_at", "-id"]},
        ),
        migrations.RunPython(copy, migrations.RunPython.noop),
    ]
