"""The Player's rating fields go: rankings 0003 copied them into `rankings.Rating` rows,
Cargo Connect's, which are now the one place a rating is kept."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_profile_stats'),
        ('rankings', '0003_ratings_per_game_type'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='player',
            name='bot_games',
        ),
        migrations.RemoveField(
            model_name='player',
            name='bot_rating',
        ),
        migrations.RemoveField(
            model_name='player',
            name='rated_games',
        ),
        migrations.RemoveField(
            model_name='player',
            name='rating',
        ),
    ]
