from django.urls import path

from . import daily_boards

app_name = "rankings"

urlpatterns = [
    path("", daily_boards.index, name="index"),
]
