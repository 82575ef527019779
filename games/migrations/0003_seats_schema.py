# The platform's shape (seats, game kinds, the finish seam): new columns and the Seat table,
# beside the old two-column ones, which 0004 copies from and 0005 removes.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_bot_games'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The old rating history moves to rankings (rankings 0001 copies it, 0006 drops it):
        # free its reverse names first.
        migrations.AlterField(
            model_name='ratingchange', name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game'),
        ),
        migrations.AlterField(
            model_name='ratingchange', name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='botratingchange', name='game',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game'),
        ),
        migrations.AlterField(
            model_name='botratingchange', name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(model_name='game', name='game_type',
                            field=models.CharField(default='cargo-connect', max_length=24)),
        migrations.AddField(model_name='game', name='mode',
                            field=models.CharField(choices=[('online', 'Online'), ('bot', 'Bot'), ('daily', 'Daily')], default='online', max_length=8)),
        migrations.AddField(model_name='game', name='options', field=models.JSONField(default=dict)),
        migrations.AddField(model_name='game', name='bot_version',
                            field=models.CharField(blank=True, default='', max_length=16)),
        migrations.AddField(model_name='game', name='termination',
                            field=models.CharField(blank=True, choices=[('played_out', 'Played Out'), ('resigned', 'Resigned'), ('day_ended', 'Day Ended'), ('timed_out', 'Timed Out'), ('voided', 'Voided')], default='', max_length=10)),
        migrations.AddField(model_name='game', name='void_reason',
                            field=models.CharField(blank=True, default='', max_length=200)),
        migrations.AddField(model_name='game', name='rematch_seat',
                            field=models.PositiveSmallIntegerField(blank=True, null=True)),
        migrations.AlterField(model_name='game', name='start', field=models.TextField()),
        migrations.AlterField(model_name='game', name='position', field=models.TextField()),
        migrations.AlterField(model_name='game', name='status',
                              field=models.CharField(choices=[('active', 'Active'), ('finished', 'Finished'), ('voided', 'Voided')], db_index=True, default='active', max_length=8)),
        migrations.AlterField(model_name='game', name='rules', field=models.CharField(max_length=8)),
        migrations.AddField(model_name='turn', name='seat',
                            field=models.PositiveSmallIntegerField(default=0)),
        migrations.AlterField(model_name='turn', name='token', field=models.CharField(max_length=64)),
        migrations.AddField(model_name='challenge', name='game_type',
                            field=models.CharField(default='cargo-connect', max_length=24)),
        migrations.AddField(model_name='challenge', name='options', field=models.JSONField(default=dict)),
        migrations.AddField(model_name='challenge', name='seat',
                            field=models.PositiveSmallIntegerField(blank=True, null=True)),
        migrations.AlterField(model_name='challenge', name='rules', field=models.CharField(max_length=8)),
        migrations.CreateModel(
            name='Seat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('index', models.PositiveSmallIntegerField()),
                ('guest_key', models.CharField(blank=True, db_index=True, max_length=64, null=True)),
                ('bot_level', models.CharField(blank=True, max_length=8, null=True)),
                ('score', models.IntegerField(blank=True, null=True)),
                ('place', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('outcome', models.CharField(blank=True, choices=[('win', 'Win'), ('draw', 'Draw'), ('loss', 'Loss')], default='', max_length=4)),
                ('resigned', models.BooleanField(default=False)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='games.game')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='seats', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['game', 'index'],
                'constraints': [
                    models.UniqueConstraint(fields=('game', 'index'), name='seat_unique_game_index'),
                    models.CheckConstraint(condition=models.Q(models.Q(('guest_key__isnull', True), ('user__isnull', True)), models.Q(('bot_level__isnull', True), ('user__isnull', True)), models.Q(('bot_level__isnull', True), ('guest_key__isnull', True)), _connector='OR'), name='seat_one_holder'),
                ],
            },
        ),
    ]
