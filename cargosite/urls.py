from django.contrib import admin
from django.urls import include, path

from api import consent as api_consent
from api import pages as api_pages
from api import site as api_site
from notifications import views as notification_views

from . import howto, theme, views

handler500 = "cargosite.unavailable.server_error"  # 503 when the database does not answer

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("metrics", views.metrics, name="metrics"),
    path("theme", theme.set_theme, name="theme"),
    path("accounts/tokens/", api_pages.token_settings, name="api-tokens"),
    path("accounts/tokens/<int:token_id>/revoke", api_pages.revoke_token,
         name="api-token-revoke"),
    path("accounts/tokens/apps/<int:app_id>/revoke", api_pages.revoke_app,
         name="api-app-revoke"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("puzzles/daily/", include("puzzles.daily.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("", include("rankings.urls")),
    path("notifications/", include("notifications.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("sw.js", notification_views.service_worker, name="service-worker"),
    path("how-to-play", howto.how_to_play, name="howto"),
    path("how-to-play/<slug:game>", howto.how_to_play, name="howto-game"),
    path("api/", api_pages.reference, name="api-reference"),  # the API root: its reference
    path("api/", api_site.api.urls),
    path("oauth/", include((api_consent.routes(), "oauth2_provider"))),
    api_consent.metadata_route(),  # RFC 8414, at the root as the RFC places it
    path("admin/", admin.site.urls),
]

handler400 = "common.errors.bad_request"
handler403 = "common.errors.permission_denied"
handler404 = "common.errors.page_not_found"
