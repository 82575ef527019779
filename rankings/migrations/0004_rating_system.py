"""`Rating.kind` is now `Rating.system` (issue #44, point 5: one name per idea; a "kind" is
a game kind). The stored values ("elo", "openskill", "vs_cargobot") and the choices stay as
they were, so no AlterField is needed.

The database needs only the column renamed: PostgreSQL and SQLite both carry the unique
constraint `rankings_rating_once` and the index `rankings_rating_board` over to the renamed
column, names unchanged. Django's `RenameField` does not rename the field in the model
state's `Meta.constraints` and `Meta.indexes`, so the state alone is told their new field
lists (dropping and making them again in the database would only rebuild the same thing).
Reversible: backwards the state gets `kind` back and the column is renamed back."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rankings', '0003_ratings_per_game_type'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField(
            model_name='rating',
            old_name='kind',
            new_name='system',
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(
                    model_name='rating',
                    name='rankings_rating_once',
                ),
                migrations.AddConstraint(
                    model_name='rating',
                    constraint=models.UniqueConstraint(
                        fields=('user', 'game_type', 'system'), name='rankings_rating_once'),
                ),
                migrations.RemoveIndex(
                    model_name='rating',
                    name='rankings_rating_board',
                ),
                migrations.AddIndex(
                    model_name='rating',
                    index=models.Index(fields=['game_type', 'system', '-value'],
                                       name='rankings_rating_board'),
                ),
            ],
        ),
    ]
