"""Sign up and sign in through allauth, with the site's own templates."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command


@pytest.mark.django_db
def test_it_renders_sign_in_and_sign_up_in_the_site_layout(client):
    for url in ("/accounts/login/", "/accounts/signup/"):
        html = client.get(url).content.decode()
        assert 'class="site-nav"' in html, url
        assert "/static/css/site.css" in html, url


@pytest.mark.django_db
def test_it_signs_up_with_username_and_email(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "erin",
            "email": "erin@example.com",
            "password1": "a-long-cargo-pass",
            "password2": "a-long-cargo-pass",
        },
    )
    assert response.status_code == 302
    assert get_user_model().objects.get(username="erin").email == "erin@example.com"


@pytest.mark.django_db
@pytest.mark.parametrize("login", ["alice", "alice@example.com"])
def test_it_signs_in_by_username_or_email(client, settings, login):
    settings.DEBUG = True
    call_command("seed_demo")
    response = client.post("/accounts/login/", {"login": login, "password": "cargo-demo"})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "alice"


@pytest.mark.django_db
def test_it_seeds_demo_users_idempotently(settings):
    settings.DEBUG = True
    call_command("seed_demo")
    call_command("seed_demo")
    assert get_user_model().objects.filter(username__in=["alice", "bob"]).count() == 2


@pytest.mark.django_db
def test_it_seeds_nothing_without_debug(settings):
    settings.DEBUG = False
    call_command("seed_demo")
    assert not get_user_model().objects.filter(username="alice").exists()


@pytest.mark.django_db
def test_it_serves_the_admin(client):
    assert client.get("/admin/").status_code == 302
