"""The styled error pages: 400, 403, 404 and 500 in the site's layout with a way back; the
game and profile views answer "no such game" / "no such player" with the styled 404
whether DEBUG is on or off."""

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.test import Client, override_settings
from django.urls import path

from cargosite import urls as site_urls


def boom_400(request):
    raise SuspiciousOperation("bad")


def boom_403(request):
    raise PermissionDenied


def boom_500(request):
    raise RuntimeError("boom")


urlpatterns = [
    *site_urls.urlpatterns,
    path("test-400", boom_400),
    path("test-403", boom_403),
    path("test-500", boom_500),
]
handler400 = site_urls.handler400
handler403 = site_urls.handler403
handler404 = site_urls.handler404


def styled(html: str, status: int) -> None:
    assert 'class="site-header"' in html  # the site's layout
    assert f'<p class="error-code" aria-hidden="true">{status}</p>' in html
    assert '<a class="button" href="/">Back to the home page</a>' in html
    assert "Technical" not in html and "URLconf" not in html and "Traceback" not in html


@pytest.mark.django_db
@override_settings(DEBUG=False, ROOT_URLCONF=__name__)
def test_each_error_has_its_styled_page_with_debug_off():
    client = Client(raise_request_exception=False)
    for url, status, words in [("/test-400", 400, "Bad request"),
                               ("/test-403", 403, "Not allowed"),
                               ("/nowhere/at/all", 404, "There is no page at this address."),
                               ("/test-500", 500, "Something broke")]:
        response = client.get(url)
        assert response.status_code == status, url
        html = response.content.decode()
        styled(html, status)
        assert words in html, url


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
def test_no_such_game_and_no_such_player_are_styled_whatever_debug_says(client, debug):
    with override_settings(DEBUG=debug):
        for url, words in [("/g/AAAAAAAAAA", "No such game."),
                           ("/g/AAAAAAAAAA/replay", "No such game."),
                           ("/@/nobody-here", "No such player."),
                           ("/@/nobody-here/games", "No such player.")]:
            response = client.get(url)
            assert response.status_code == 404, url
            html = response.content.decode()
            styled(html, 404)
            assert words in html, url


@pytest.mark.django_db
def test_the_404_keeps_the_chosen_theme_and_the_member(client, django_user_model):
    user = django_user_model.objects.create_user("marta", "m@example.com", "a-long-cargo-pass")
    client.force_login(user)
    client.cookies["theme"] = "light"
    html = client.get("/g/AAAAAAAAAA").content.decode()
    assert 'data-theme="light"' in html and "marta" in html
