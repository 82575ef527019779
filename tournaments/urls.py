"""The tournament pages' addresses, under /tournaments/ (namespace `tournaments`)."""

from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.index, name="index"),
    path("games/<str:game_id>/berserk", views.berserk_game, name="berserk_game"),
    path("create", views.create, name="create"),
    path("<str:tournament_id>/", views.detail, name="detail"),
    path("<str:tournament_id>/standings/", views.standings, name="standings"),
    path("<str:tournament_id>/join", views.join, name="join"),
    path("<str:tournament_id>/withdraw", views.withdraw, name="withdraw"),
    path("<str:tournament_id>/pause", views.pause, name="pause"),
    path("<str:tournament_id>/resume", views.resume, name="resume"),
    path("<str:tournament_id>/berserk", views.berserk, name="berserk"),
]
