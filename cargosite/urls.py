from django.contrib import admin
from django.urls import include, path

from notifications import views as notification_views

from . import howto, howto_express, theme, views

handler500 = "cargosite.unavailable.server_error"  # 503 when the database does not answer

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", views.metrics, name="metrics"),
    path("theme", theme.set_theme, name="theme"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("puzzles/daily/", include("puzzles.daily.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("", include("rankings.urls")),
    path("notifications/", include("notifications.urls")),
    path("sw.js", notification_views.service_worker, name="service-worker"),
    path("how-to-play", howto.how_to_play, name="howto"),
    path("how-to-play/cargo-express", howto_express.how_to_play, name="howto-express"),
    path("admin/", admin.site.urls),
]

handler400 = "cargosite.errors.bad_request"
handler403 = "cargosite.errors.permission_denied"
handler404 = "cargosite.errors.page_not_found"
