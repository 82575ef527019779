"""Finding a profile: any letter case finds the account and redirects to its spelling
(keeping the query), an unknown or deactivated account is a 404, /profile is your own."""

import pytest

pytestmark = pytest.mark.django_db


def test_it_redirects_any_letter_case_to_the_members_spelling(users, client):
    users["alice"].username = "Kofi"
    users["alice"].save()
    assert client.get("/@/Kofi").status_code == 200
    for asked in ("kofi", "KOFI", "kOfI"):
        response = client.get(f"/@/{asked}")
        assert (response.status_code, response["Location"]) == (302, "/@/Kofi")
    assert client.get("/@/KOFI?vs=bob")["Location"] == "/@/Kofi?vs=bob"
    assert client.get("/@/KOFI/games?page=2")["Location"] == "/@/Kofi/games?page=2"


def test_an_unknown_or_deactivated_player_is_404(users, client):
    assert client.get("/@/nobody").status_code == 404
    assert client.get("/@/nobody/games").status_code == 404
    users["bob"].is_active = False
    users["bob"].save()
    assert client.get("/@/bob").status_code == 404


def test_profile_redirects_to_your_own(users, client):
    client.force_login(users["carol"])
    assert client.get("/profile")["Location"] == "/@/carol"
