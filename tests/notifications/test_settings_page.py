"""The settings page saves a member's choices; a bad choice changes nothing."""

import pytest

from notifications import choices
from notifications.models import NotificationSettings

pytestmark = pytest.mark.django_db


def test_it_shows_the_defaults_then_saves_the_choices(users, client):
    client.force_login(users["alice"])
    page = client.get("/notifications/settings").content.decode()
    assert 'name="digest"' in page and 'name="alarm"' in page
    response = client.post("/notifications/settings", {
        "in_site": ["your_turn", "game_ended"], "by_email": ["your_turn"], "digest": "on"})
    assert response.status_code == 302
    now = choices.of_member(users["alice"])
    assert now.in_site == {"your_turn", "game_ended"} and now.by_email == {"your_turn"}
    assert (now.digest, now.alarm) == (True, False)


def test_an_unknown_kind_is_refused_and_nothing_changes(users, client):
    client.force_login(users["alice"])
    response = client.post("/notifications/settings", {"in_site": ["spam"], "digest": "on"})
    assert response.status_code == 400
    assert not NotificationSettings.objects.exists()
    with pytest.raises(ValueError, match="spam"):
        choices.save(users["alice"], in_site=["spam"], by_email=[], digest=True, alarm=False)
