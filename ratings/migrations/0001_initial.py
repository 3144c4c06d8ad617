# The ratings (docs/ratings.md): one per player and game kind, and its change per rated game.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0011_game_rated'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Rating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(help_text='The game, by its catalogue name.', max_length=30)),
                ('mu', models.FloatField()),
                ('sigma', models.FloatField()),
                ('games', models.PositiveIntegerField(default=0, help_text='Rated games played.')),
                ('updated_at', models.DateTimeField(help_text='When the last rated game finished.')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['kind', 'games'], name='rating_kind_games')],
                'constraints': [models.UniqueConstraint(fields=('user', 'kind'), name='rating_one_per_kind')],
            },
        ),
        migrations.CreateModel(
            name='RatingChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(max_length=30)),
                ('rank', models.PositiveSmallIntegerField()),
                ('players', models.PositiveSmallIntegerField(help_text='How many played the game.')),
                ('mu_before', models.FloatField()),
                ('sigma_before', models.FloatField()),
                ('mu_after', models.FloatField()),
                ('sigma_after', models.FloatField()),
                ('games', models.PositiveIntegerField()),
                ('at', models.DateTimeField(help_text='When the game finished.')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['user', 'kind', 'at'], name='rating_change_history')],
                'constraints': [models.UniqueConstraint(fields=('game', 'user'), name='rating_change_once')],
            },
        ),
    ]
