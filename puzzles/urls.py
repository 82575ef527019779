"""The Weekly Puzzles' URLs under /puzzles/. `/puzzles/daily/` belongs to the Daily
Challenge (`puzzles.daily`): no pattern here matches it (days are yyyy-mm-dd)."""

import datetime as dt

from django.urls import path, register_converter

from . import views


class DateConverter:
    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> dt.date:
        return dt.date.fromisoformat(value)  # ValueError: no match, so a 404

    def to_url(self, value: dt.date) -> str:
        return value.isoformat()


register_converter(DateConverter, "day")

app_name = "puzzles"
urlpatterns = [
    path("", views.index, name="index"),
    path("merge", views.merge, name="merge"),
    path("review/<str:key>", views.review_page, name="review"),
    path("week/<day:monday>/", views.week, name="week"),
    path("<day:day>/", views.puzzle, name="puzzle"),
    path("<day:day>/state", views.attempt_state, name="state"),
    path("<day:day>/turn", views.turn, name="turn"),
    path("<day:day>/solution", views.solution, name="solution"),
    path("<day:day>/figures", views.figures, name="figures"),
    path("<day:day>/review", views.review_attempt, name="review_attempt"),
]
