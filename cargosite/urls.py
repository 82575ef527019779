from django.contrib import admin
from django.urls import include, path

from . import howto, views

handler500 = "cargosite.errors.server_error"  # 503 when the database does not answer

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("puzzles/daily/", include("puzzles.daily.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("", include("rankings.urls")),
    path("how-to-play", howto.how_to_play, name="howto"),
    path("admin/", admin.site.urls),
]
