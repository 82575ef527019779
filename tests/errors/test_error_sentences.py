"""A 404's words end with one full stop (issue #42, point 16: Cargo Express's review page
said "Cargo Express games have no review.."): a view's message that already ends a sentence
keeps its own stop, one that does not gets one."""

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.actors import Actor


@pytest.fixture
def express_game(db):
    User = get_user_model()
    people = [User.objects.create_user(n, f"{n}@example.com", "a-long-cargo-pass")
              for n in ("marta", "kofi")]
    return services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(p) for p in people])


@pytest.mark.parametrize("debug", [False, True])
def test_the_express_review_404_ends_with_one_full_stop(express_game, client, settings, debug):
    settings.DEBUG = debug
    answer = client.get(f"/g/{express_game.id}/review")
    assert answer.status_code == 404
    html = answer.content.decode()
    assert "Cargo Express games have no review." in html
    assert "review.." not in html


@pytest.mark.django_db
def test_a_message_without_a_stop_gets_one(client):
    answer = client.get("/rankings/?tab=nosuch")
    assert answer.status_code == 404
    html = answer.content.decode()
    assert "No rankings tab &#x27;nosuch&#x27;." in html, html
