# Drop the two-column fields that 0004 copied into seats.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("games", "0004_seats_data")]

    operations = [
        *(migrations.RemoveField(model_name="game", name=name) for name in (
            "kind", "size", "blue", "orange", "bot_level", "bot_side", "guest_key", "winner",
            "score_blue", "score_orange", "resigned", "rematch_offered_by")),
        migrations.RenameField(model_name="game", old_name="rematch_seat",
                               new_name="rematch_offered_by"),
        migrations.RemoveField(model_name="turn", name="side"),
        migrations.AlterField(model_name="turn", name="seat",
                              field=models.PositiveSmallIntegerField()),
        migrations.RemoveField(model_name="challenge", name="size"),
        migrations.RemoveField(model_name="challenge", name="color"),
    ]
