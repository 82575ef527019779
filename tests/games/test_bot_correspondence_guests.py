"""Correspondence days against bots (issue #29): a guest's "Play against bots" form does
not offer them and `POST /play/bots` refuses them in words, making nothing; a member is
offered them, and such a game counts in their correspondence cap."""

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from games import services
from games.actors import Actor
from games.models import Game
from games.timing import correspondence

pytestmark = pytest.mark.django_db
EXPRESS = "cargo-express"


def bots_form(html):
    return html.split('id="bots-title"')[1].split("</form>")[0]


def post(client, time_control):
    return client.post("/play/bots", {"game_type": EXPRESS, "players": "2",
                                      "level_1": "easy", "seat": "random",
                                      "time_control": time_control})


def test_a_guest_is_not_offered_days_and_is_refused_them(users):
    guest = Client()
    for page in ("/play/?game=cargo-express", "/how-to-play/cargo-express"):
        form = bots_form(guest.get(page).content.decode())
        assert 'name="time_control" value="untimed" checked' in form
        assert 'value="15+10"' in form and 'value="3d"' not in form and \
            'value="14d"' not in form
    answer = post(guest, "3d")
    assert answer.status_code == 302 and answer["Location"].startswith("/play/")
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [
        "A correspondence table takes members only: sign in to play over days."]
    assert Game.objects.count() == 0
    with pytest.raises(services.GameError) as refused:  # the service itself, too
        services.create_game_against_bots(actor=Actor.guest("a-session"), game_type=EXPRESS,
                                          levels=["easy"], time_control="1d")
    assert refused.value.code == "not_a_player"
    assert Game.objects.count() == 0


def test_a_member_is_offered_days_and_they_count_in_the_cap(users, monkeypatch):
    monkeypatch.setattr(correspondence, "NEW_MEMBER_CAP", 1)
    member = Client()
    member.force_login(users["alice"])
    form = bots_form(member.get("/play/?game=cargo-express").content.decode())
    assert 'value="3d"' in form and 'value="14d"' in form
    assert post(member, "3d")["Location"].startswith("/g/")
    answer = post(member, "5d")
    assert "You already have 1 correspondence game in progress" in \
        str(list(get_messages(answer.wsgi_request))[0])
    assert list(Game.objects.values_list("time_control", flat=True)) == ["3d"]
