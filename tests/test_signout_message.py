"""Signing out says so: the next page carries "You have signed out." in a status list."""

import pytest
from django.contrib.auth import get_user_model


@pytest.mark.django_db
def test_signing_out_shows_a_message(client):
    user = get_user_model().objects.create_user("carol", "c@example.com", "pw-9f8e7d6c")
    client.force_login(user)
    response = client.post("/accounts/logout/", follow=True)
    html = response.content.decode()
    assert '<ul class="messages" role="status">' in html
    assert "You have signed out." in html
    assert "Sign out" not in html
