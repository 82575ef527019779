# The rating history now lives in rankings (rankings 0001 copied it).

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [("games", "0005_seats_cleanup"), ("rankings", "0001_initial")]

    operations = [
        migrations.DeleteModel(name="BotRatingChange"),
        migrations.DeleteModel(name="RatingChange"),
    ]
