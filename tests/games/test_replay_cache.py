"""A finished game's replay is kept per process as JSON text (games.records.history,
`finished_replays`), by game, revision and viewer: asked again it is not rebuilt, a change of
the row (a new revision) builds it again, a game in progress is always built, and
`REPLAY_CACHE_BYTES=0` keeps none."""

import pytest

from games import services
from games.records import history
from tests.games.support import member, new_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def builds(monkeypatch):
    """The replays built (not read from the cache) in this test, by game."""
    history.finished_replays.clear()
    built: list[str] = []
    build = history._replay_data

    def counted(game, viewer):
        built.append(game.id)
        return build(game, viewer)

    monkeypatch.setattr(history, "_replay_data", counted)
    yield built
    history.finished_replays.clear()


def test_a_finished_games_replay_is_built_once_per_revision_and_viewer(users, builds):
    game = new_game(users["alice"], users["bob"])
    services.apply_turn(game.id, actor=member(users["alice"]), ply=0,
                        token=services.state_of(services.get_game(game.id))["legal"][0])
    assert services.replay_data(game.id) == services.replay_data(game.id)
    assert builds == [game.id, game.id]  # in progress: built every time

    services.resign(game.id, actor=member(users["bob"]))
    first = services.replay_data(game.id)
    first["states"].clear()  # a copy: changing it changes nothing kept
    again = services.replay_data(game.id)
    assert builds == [game.id] * 3 and len(again["states"]) == 2
    assert again["states"] == services.replay_data(game.id, viewer=0)["states"]
    assert len(builds) == 4  # another viewer: another entry

    row = services.get_game(game.id)
    row.save()  # a new revision (a void, a rematch offer): built again, saying so
    rebuilt = services.replay_data(game.id)
    assert len(builds) == 5 and rebuilt["states"][-1]["rev"] == row.revision
    assert rebuilt["states"][:-1] == again["states"][:-1]


def test_none_is_kept_with_no_bytes_allowed(users, builds, settings):
    settings.REPLAY_CACHE_BYTES = 0
    game = new_game(users["alice"], users["bob"])
    services.resign(game.id, actor=member(users["bob"]))
    services.replay_data(game.id)
    services.replay_data(game.id)
    assert builds == [game.id, game.id] and history.finished_replays.size == 0
