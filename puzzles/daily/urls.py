import datetime as dt

from django.urls import path, register_converter

from . import views

app_name = "daily"


class DayConverter:
    """A date as yyyy-mm-dd (a date that does not exist is no match: a 404)."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> dt.date:
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(value) from None

    def to_url(self, value: dt.date) -> str:
        return value.isoformat()


register_converter(DayConverter, "day")

urlpatterns = [
    path("", views.today, name="today"),
    path("archive/", views.archive, name="archive"),
    path("start", views.start, name="start"),
    path("resign/<str:game_id>", views.resign, name="resign"),
    path("<day:day>/", views.day, name="day"),
]
