"""A Daily Challenge game has no rematch: the next game starts from the Daily Challenge
page (ranked or practice, with the day's CargoBot). Offering one is refused and changes
nothing, and the finished game's page shows no rematch button."""

import pytest

from games import services
from games.actors import Actor
from games.frames.protocol import Code, GameError
from games.models import Game
from puzzles.daily import services as daily

pytestmark = pytest.mark.django_db(transaction=True)


def test_offering_a_rematch_of_a_daily_game_is_refused(frozen, users, eager, client):
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    services.resign(game.id, actor=alice)
    games_before = Game.objects.count()
    with pytest.raises(GameError) as refused:
        services.offer_rematch(game.id, actor=alice)
    assert refused.value.error == Code.BAD_REQUEST
    after = services.get_game(game.id)
    assert after.rematch_id is None and after.rematch_offered_by is None
    assert Game.objects.count() == games_before
    client.force_login(users["alice"])
    html = client.get(f"/g/{game.id}").content.decode()
    assert 'data-rematch-url=""' in html


def test_a_bot_games_page_keeps_its_rematch_button(users, eager, client):
    game = services.create_bot_game(actor=Actor.member(users["alice"]), level="easy",
                                    options={"size": 5}, seat="blue")
    client.force_login(users["alice"])
    html = client.get(f"/g/{game.id}").content.decode()
    assert f'data-rematch-url="/g/{game.id}/rematch"' in html
