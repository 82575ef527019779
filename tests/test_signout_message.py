"""Signing out says so: the next page carries "You have signed out." in a list inside a
status region (the role is on a wrapper, not on the list: issue #42, point 17)."""

import pytest
from django.contrib.auth import get_user_model


@pytest.mark.django_db
def test_signing_out_shows_a_message(client):
    user = get_user_model().objects.create_user("carol", "c@example.com", "pw-9f8e7d6c")
    client.force_login(user)
    response = client.post("/accounts/logout/", follow=True)
    html = response.content.decode()
    assert '<div class="messages" role="status">\n      <ul class="message-list">' in html
    assert "You have signed out." in html
    assert "Sign out" not in html
