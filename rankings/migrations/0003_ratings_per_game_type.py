"""Ratings per game type (issue #25): a `Rating` row per member, game type and rating kind.
Every `accounts.Player`'s Cargo Connect Elo (`rating`, `rated_games`) and vs CargoBot rating
(`bot_rating`, `bot_games`) are copied unchanged into Cargo Connect's "elo" and
"vs_cargobot" rows; accounts 0004 then drops the Player fields. Reversible: the reverse
copies Cargo Connect's rows back (accounts 0004 reversed first re-adds the fields)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

CARGO_CONNECT = "cargo-connect"
BATCH = 2000


def copy_player_ratings(apps, schema_editor):
    """Two rows per Player, the values and counts as they are (no rating is recomputed)."""
    Player = apps.get_model("accounts", "Player")
    Rating = apps.get_model("rankings", "Rating")
    rows = []
    for p in Player.objects.order_by("pk").values_list(
            "user_id", "rating", "rated_games", "bot_rating", "bot_games").iterator(BATCH):
        user_id, rating, rated_games, bot_rating, bot_games = p
        rows.append(Rating(user_id=user_id, game_type=CARGO_CONNECT, kind="elo",
                           value=rating, games=rated_games))
        rows.append(Rating(user_id=user_id, game_type=CARGO_CONNECT, kind="vs_cargobot",
                           value=bot_rating, games=bot_games))
        if len(rows) >= BATCH:
            Rating.objects.bulk_create(rows)
            rows = []
    Rating.objects.bulk_create(rows)


def copy_back(apps, schema_editor):
    """The reverse: Cargo Connect's rows back into the Player fields (other types' rows
    have nowhere to go and are dropped with the table)."""
    Player = apps.get_model("accounts", "Player")
    Rating = apps.get_model("rankings", "Rating")
    fields = {"elo": ("rating", "rated_games"), "vs_cargobot": ("bot_rating", "bot_games")}
    for r in Rating.objects.filter(game_type=CARGO_CONNECT, kind__in=fields).iterator(BATCH):
        value, games = fields[r.kind]
        Player.objects.update_or_create(user_id=r.user_id,
                                        defaults={value: r.value, games: r.games})


class Migration(migrations.Migration):

    dependencies = [
        ('rankings', '0002_daily_boards'),
        ('accounts', '0003_profile_stats'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='ratingchange',
            name='mu_after',
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='mu_before',
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='sigma_after',
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='sigma_before',
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.CreateModel(
            name='Rating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=32)),
                ('kind', models.CharField(choices=[('elo', 'Elo rating'), ('openskill', 'Rating'), ('vs_cargobot', 'vs CargoBot rating')], max_length=12)),
                ('value', models.IntegerField(default=1200)),
                ('games', models.PositiveIntegerField(default=0)),
                ('mu', models.FloatField(blank=True, null=True)),
                ('sigma', models.FloatField(blank=True, null=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['game_type', 'kind', '-value'], name='rankings_rating_board')],
                'constraints': [models.UniqueConstraint(fields=('user', 'game_type', 'kind'), name='rankings_rating_once')],
            },
        ),
        migrations.RunPython(copy_player_ratings, copy_back),
    ]
