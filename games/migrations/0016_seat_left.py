from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0015_queued_turns'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='left',
            field=models.JSONField(blank=True, null=True),
        ),
    ]
