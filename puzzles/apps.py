"""The Weekly Puzzles app: puzzles, weeks, members' progress, the puzzle pages and admin.

Puzzles count nowhere else (no ratings, stats or achievements), so the app registers no
game-end handler. The Daily Challenge is a separate app, `puzzles.daily`.
"""

from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"
    verbose_name = "Weekly Puzzles"
