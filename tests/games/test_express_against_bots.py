"""One person against 1-3 ExpressBots (issue #26, docs/bot-games.md): the service seats the
person and a bot per level, casual, started at once; bad input is refused in words and
makes nothing; the pace limit shared with CargoBot's games; the lobby's and How to play's
form, `POST /play/bots`; leaving ends the game (two seats: the bot wins; more: every person
gone, aborted, and the page says so); a whole game against three Easy bots, whose tasks run
in-process as the embedded default does, reaches its end."""

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from games import services
from games.actors import Actor
from games.botplay import bot_games
from games.frames.protocol import Code, GameError
from games.kinds import get_kind
from games.models import Game
from games.turns.store import live
from rankings.models import BotRatingChange, Rating
from tests.games.bot_support import eager

__all__ = ["eager"]  # fixture

pytestmark = pytest.mark.django_db(transaction=True)
EXPRESS = "cargo-express"
KIND = get_kind(EXPRESS)


def against_bots(actor, levels, seat="random", **kwargs):
    return services.create_game_against_bots(actor=actor, game_type=EXPRESS, levels=levels,
                                             seat=seat, **kwargs)


def holders(game):
    return [s.user.username if s.user else s.bot_level or "guest" for s in game.seat_list]


def as_member(user):
    client = Client()
    client.force_login(user)
    return client


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def play_person(game_id, actor, seat):
    """The person's decisions (its Easy bot's choice from its own view) until the game is
    over; the bots answer within each decision (eager tasks)."""
    for n in range(3000):
        row = services.get_game(game_id)
        if row.is_over:
            return row
        lg = live(row)
        assert lg.deciding(seat), (lg.acting(), "waiting for a bot")
        token = KIND.bot_decision(lg.redacted(seat), seat, "easy", n)
        services.apply_turn(game_id, actor=actor, ply=lg.sequence(seat), token=token)
    raise AssertionError("not over")


def test_it_seats_the_person_where_asked_and_a_bot_per_level_in_order(eager, users):
    game = against_bots(Actor.member(users["alice"]), ["easy", "hard", "medium"], "seat2",
                        time_control="15+10")
    row = services.get_game(game.id)
    assert holders(row) == ["easy", "alice", "hard", "medium"]
    assert (row.mode, row.rated, row.status, row.time_control) == ("bot", False, "active",
                                                                   "15+10")
    assert row.bot_seed is not None and row.bot_version == KIND.bot_version
    # The bots have clocks of none; the person's runs (the platform's rule).
    assert [c is not None for c in row.clock["left"]] == [False, True, False, False]
    # The game started: whoever picks first among the bots has picked, the person's turn
    # to pick came (or is still to come after other bots), nobody waits on a bot.
    lg = live(row)
    assert lg.p.phase == "c" and lg.acting() == [1] and row.bot_waiting_since is None
    state = services.state_of(row, viewer=1)
    assert [s["name"] for s in state["seats"]] == [
        "ExpressBot Easy", "alice", "ExpressBot Hard", "ExpressBot Medium"]
    assert all(s.get("rating") is None for s in state["seats"])  # casual: no ratings shown


def test_a_random_seat_and_a_guest(eager, users):
    seats = set()
    for n in range(6):
        game = against_bots(Actor.guest(f"guest-session-{n}"), ["easy"])
        row = services.get_game(game.id)
        assert len(row.seat_list) == 2 and row.rated is False
        seats.add(row.human_seats[0])
        assert row.seat_list[row.human_seats[0]].guest_key == f"guest-session-{n}"
    assert seats <= {0, 1}


@pytest.mark.parametrize("levels, seat, control, words", [
    ([], "random", "", "takes 1, 2, 3 bots, not 0"),
    (["easy"] * 4, "random", "", "takes 1, 2, 3 bots, not 4"),
    (["easy", "expert"], "random", "", "a bot's level is easy, medium, hard, not 'expert'"),
    (["easy"], "seat3", "", "with 2 players you sit at random or at Seat 1, Seat 2"),
    (["easy"], "blue", "", "not 'blue'"),
    (["easy"], "random", "7+7+7", "7+7+7"),
])
def test_bad_input_is_refused_in_words_and_makes_nothing(users, levels, seat, control, words):
    with pytest.raises(GameError) as refused:
        against_bots(Actor.member(users["alice"]), levels, seat, time_control=control)
    assert refused.value.error == Code.BAD_REQUEST and words in refused.value.message
    assert Game.objects.count() == 0


def test_only_a_person_may_start_one(users):
    for actor in (None, Actor.bot("easy")):
        with pytest.raises(GameError) as refused:
            against_bots(actor, ["easy"])
        assert refused.value.error == Code.NOT_A_PLAYER
    assert Game.objects.count() == 0


def test_starting_games_against_bots_is_paced_across_both_kinds(users, lost_tasks):
    alice = Actor.member(users["alice"])
    for _ in range(bot_games.BOT_GAMES_PER_WINDOW - 1):
        against_bots(alice, ["easy"])
    services.create_bot_game(actor=alice, level="easy", options={"size": 5})
    for start in (lambda: against_bots(alice, ["easy"]),
                  lambda: services.create_bot_game(actor=alice, level="easy",
                                                   options={"size": 5})):
        with pytest.raises(GameError) as refused:
            start()
        assert refused.value.error == Code.THROTTLED
        assert "started 10 games against bots in the last 10 minutes" in refused.value.message
    assert Game.objects.count() == bot_games.BOT_GAMES_PER_WINDOW
    against_bots(Actor.member(users["bob"]), ["easy"])  # someone else is not held back
    Game.objects.update(created_at=Game.objects.first().created_at
                        - bot_games.BOT_GAMES_WINDOW)
    against_bots(alice, ["easy"])  # the window has passed


@pytest.fixture
def lost_tasks(monkeypatch):
    from games.botplay import bots

    monkeypatch.setattr(bots, "enqueue_bot_turn", lambda *a, **k: None)


def test_the_lobby_offers_the_form_for_the_chosen_game(users):
    html = Client().get("/play/?game=cargo-express").content.decode()
    form = html.split('id="bots-title"')[1]
    assert "Play against ExpressBots" in form and 'action="/play/bots"' in form
    assert 'name="players" value="2" checked' in form and 'name="players" value="4"' in form
    assert "<legend>Bot 1</legend>" in form and "<legend>Bot 3 (4 players)</legend>" in form
    assert 'name="level_2" value="hard"' in form and 'name="seat" value="seat4"' in form
    assert 'name="time_control" value="untimed" checked' in form and 'value="15+10"' in form
    assert "Play CargoBot" not in html and 'name="rated"' not in form
    assert "Play CargoBot" in Client().get("/play/").content.decode()
    assert "Play against ExpressBots" not in Client().get("/play/").content.decode()
    howto = Client().get("/how-to-play/cargo-express").content.decode()
    assert 'action="/play/bots"' in howto and 'name="game_type" value="cargo-express"' in howto


def test_a_guest_starts_one_from_the_form_and_lands_on_its_page(eager, users):
    guest = Client()
    answer = guest.post("/play/bots", {"game_type": EXPRESS, "players": "3",
                                       "level_1": "easy", "level_2": "medium",
                                       "level_3": "hard", "seat": "seat1",
                                       "time_control": "untimed"})
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/g/{game.id}"
    assert holders(game) == ["guest", "easy", "medium"]  # Bot 3's row is past 3 players
    page = guest.get(f"/g/{game.id}").content.decode()
    assert "Casual, against ExpressBot Easy and ExpressBot Medium" in page
    lobby = guest.get("/play/?game=cargo-express").content.decode()
    assert "Your games against bots" in lobby
    assert "Cargo Express against ExpressBot Easy and ExpressBot Medium" in lobby
    assert "(you play Seat 1)" in lobby


@pytest.mark.parametrize("fields, words", [
    ({"players": "5"}, "takes 1, 2, 3 bots, not 4."),
    ({"players": "2", "seat": "seat4"}, "With 2 players you sit at random or at Seat 1"),
    ({"level_1": "grandmaster"}, "A bot's level is easy, medium, hard"),
    ({"time_control": "2+1"}, "2+1 is not a time control here"),
    ({"players": ""}, "Choose how many play: 2, 3, 4."),
    ({"game_type": "cargo-connect"}, "Choose a game played against bots at a table: "
                                     "Cargo Express."),
])
def test_the_form_refuses_bad_fields_with_a_message(users, fields, words):
    data = {"game_type": EXPRESS, "players": "2", "level_1": "easy", "seat": "random",
            "time_control": "untimed", **fields}
    answer = as_member(users["alice"]).post("/play/bots", data)
    assert answer.status_code == 302 and answer["Location"].startswith("/play/")
    assert any(words in m for m in messages_of(answer)), messages_of(answer)
    assert Game.objects.count() == 0


def test_leaving_a_two_seat_game_hands_the_bot_the_win(eager, users):
    alice = Actor.member(users["alice"])
    game = against_bots(alice, ["easy"], "seat1")
    frame = services.resign(game.id, actor=alice)
    row = services.get_game(game.id)
    assert (row.status, row.termination) == ("finished", "resigned")
    assert [s.place for s in row.seat_list] == [2, 1]
    assert frame["state"]["ending"]["text"] == \
        "Seat 1 (alice) resigned: Seat 2 (ExpressBot Easy) wins"
    assert not BotRatingChange.objects.exists() and not Rating.objects.exists()


@pytest.mark.parametrize("players", [3, 4])
def test_leaving_a_bigger_game_aborts_it_as_every_person_has_gone(eager, users, players):
    alice = Actor.member(users["alice"])
    game = against_bots(alice, ["easy"] * (players - 1), "seat2")
    frame = services.resign(game.id, actor=alice)
    row = services.get_game(game.id)
    assert (row.status, row.termination) == ("aborted", "aborted")
    assert all(s.place is None for s in row.seat_list) and row.bot_waiting_since is None
    assert frame["state"]["over"] and frame["state"]["acting"] == []
    assert frame["state"]["ending"]["text"] == \
        "Seat 2 (alice) resigned: every person at the table left this casual game, so " \
        "it is aborted: no result, no rating change"
    assert frame["state"]["ending"]["out"] == ["seat2"]


def test_a_whole_game_against_three_easy_bots_reaches_its_end(eager, users):
    alice = Actor.member(users["alice"])
    game = against_bots(alice, ["easy", "easy", "easy"], "seat3")
    row = play_person(game.id, alice, 2)
    assert (row.status, row.termination) == ("finished", "played_out")
    assert sorted(s.place for s in row.seat_list)[0] == 1
    assert all(s.score is not None for s in row.seat_list)
    state = services.state_of(row, viewer=2)
    assert state["over"] and state["result"]["breakdown"][2]["total"] == row.seat_list[2].score
    # Casual: no rating of any kind moved; the profile lists it against ExpressBots.
    assert not BotRatingChange.objects.exists() and not Rating.objects.exists()
    profile = as_member(users["alice"]).get("/@/alice").content.decode()
    assert "vs ExpressBots" in profile
    # A rematch starts at once: the bots accept, the seats turn by one, still casual.
    frame = services.offer_rematch(game.id, actor=alice)
    again = services.get_game(frame["rematch"]["game"])
    assert holders(again) == ["easy", "easy", "easy", "alice"]
    assert (again.mode, again.rated) == ("bot", False)
