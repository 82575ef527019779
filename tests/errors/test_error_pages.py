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


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
def test_every_404_is_the_sites_page_whatever_debug_says(client, django_user_model, debug):
    """`make run` runs with DEBUG on: a bad URL, an unknown rankings tab, a future or
    malformed Daily Challenge date, a week or puzzle day that is not open, an unknown admin
    page: each is the site's 404 page (with the member's header), never Django's technical
    one (issue #27, item 13)."""
    user = django_user_model.objects.create_superuser("marta", "m@example.com",
                                                      "a-long-cargo-pass")
    client.force_login(user)
    with override_settings(DEBUG=debug):
        for url, words in [("/no-such-page/", "There is no page at this address."),
                           ("/rankings/?tab=nope", "No rankings tab &#x27;nope&#x27;."),
                           ("/rankings/?tab=daily&level=impossible", "No such difficulty."),
                           ("/puzzles/daily/2999-01-01/",
                            "That day&#x27;s challenge has not started yet."),
                           ("/puzzles/daily/2026-02-30/", "There is no page at this address."),
                           ("/puzzles/2026-02-30/", "There is no page at this address."),
                           ("/puzzles/week/2998-12-31/", "That week has not begun."),
                           ("/admin/no-such-admin-page/", "There is no page at this address.")]:
            response = client.get(url)
            assert response.status_code == 404, url
            html = response.content.decode()
            styled(html, 404)
            assert words in html, url
            assert "marta" in html, url  # the request's context: the member's header


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_an_endpoints_404_is_not_the_technical_page_either(client):
    """A puzzle endpoint for a day not open yet raises Http404: the site's page, not the
    technical one; a view's own 404 page ("opens on its day") is left as it is."""
    response = client.post("/puzzles/2999-01-01/state", "{}", content_type="application/json")
    assert response.status_code == 404
    assert "URLconf" not in response.content.decode()
    response = client.get("/puzzles/2999-01-01/")
    assert response.status_code == 404 and "opens on its day" in response.content.decode()
