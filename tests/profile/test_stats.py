"""Per-game stats, computed once after commit from the games' stored events: shapes,
chits, perfect manifests, cards, the result; only online and casual games count (the Daily
Challenge does not), a voided game's rows go, and the profile shows the totals."""

import pytest

from accounts.models import GameStats
from accounts.stats import SHAPES, write
from games import services
from games.actors import Actor
from games.models import Game, Turn

pytestmark = pytest.mark.django_db


def events_of(game, side):
    return [e for t in Turn.objects.filter(game=game).order_by("ply") for e in t.events
            if e.get("side") == side]


def test_it_counts_what_the_events_say(users, play):
    alice, bob = users["alice"], users["bob"]
    games = [play.game(alice, bob, seed=seed) for seed in (1, 22, 333)]
    for game in games:
        row = GameStats.objects.get(game=game, user=alice)
        unloads = [e for e in events_of(game, "blue") if e["type"] == "unload"]
        assert row.unloads == len(unloads)
        for shape in SHAPES:
            assert row.shape_count(shape) == sum(1 for e in unloads if e["shape"] == shape)
        assert row.gold_chits == sum(1 for e in unloads if e["chit"] == "gold")
        over = next(e for t in Turn.objects.filter(game=game) for e in t.events
                    if e["type"] == "over")
        assert row.rust == over["audit"]["blue"]["rust"]
        assert row.perfect == (over["audit"]["blue"]["rust"] == 0)
        seat = game.seat_list[0]
        assert (row.outcome, row.score, row.opponent_id) == (seat.outcome, seat.score, bob.pk)
        cards = [t.token[0] for t in Turn.objects.filter(game=game, seat=0)
                 if t.token[0] in "SLPDR"]
        assert sum(row.card_count(c) for c in "SLPDR") == len(cards)


def test_it_is_written_once(users, play):
    game = play.game(users["alice"], users["bob"], seed=4)
    write(services.get_game(game.id))  # a second run (a retried handler) adds nothing
    assert GameStats.objects.filter(game=game).count() == 2


def test_a_resigned_game_counts_its_rust_from_the_shapes_completed(users, play):
    game = play.resign(users["alice"], users["bob"])
    row = GameStats.objects.get(game=game, user=users["bob"])
    assert (row.outcome, row.resigned, row.rust, row.perfect) == ("loss", True, 7, False)
    assert GameStats.objects.get(game=game, user=users["alice"]).opponent_resigned


def test_daily_challenge_and_unfinished_games_count_nowhere(users, play, client):
    alice = users["alice"]
    daily = play.commit(services.create_game, game_type="cargo-connect",
                        options={"size": 5}, mode=Game.Mode.DAILY, rated=False,
                        seats=[Actor.member(alice), Actor.bot("easy")])
    play.commit(services.resign, daily.id, actor=Actor.member(alice))
    play.commit(services.create_game, game_type="cargo-connect", options={"size": 5},
                seats=[Actor.member(alice), Actor.member(users["bob"])])
    assert not GameStats.objects.exists()
    context = client.get("/@/alice").context
    assert context["totals"]["games"] == 0
    assert all(m["played"] == 0 for m in context["modes"])
    assert not any(item["earned"] for item in context["cabinet"])
    assert len(context["recent"]) == 1  # the game still being played; not the daily one


def test_a_voided_game_leaves_the_stats(users, play):
    game = play.game(users["alice"], users["bob"], seed=9)
    play.commit(services.void_game, game.id, "a test")
    assert not GameStats.objects.filter(game=game).exists()


def test_the_profile_shows_the_totals_and_the_record_by_mode(users, play, client):
    alice, bob = users["alice"], users["bob"]
    online = [play.game(alice, bob, seed=seed) for seed in (2, 40)]
    bot = play.bot(alice, level="easy", seed=7)
    rows = list(GameStats.objects.filter(user=alice))
    context = client.get("/@/alice").context
    totals = context["totals"]
    assert totals["games"] == 3
    assert totals["gold"] == sum(r.gold_chits for r in rows)
    assert totals["perfect"] == sum(r.perfect for r in rows)
    assert totals["average"] == round(sum(r.score for r in rows) / 3, 1)
    assert [s["count"] for s in totals["shapes"]] == [
        sum(r.shape_count(s) for r in rows) for s in SHAPES]
    modes = {m["label"]: m for m in context["modes"]}
    online_row = modes["Online against people"]
    assert online_row["played"] == 2
    assert online_row["won"] == sum(1 for g in online if g.seat_list[0].outcome == "win")
    easy = modes["Casual vs CargoBot Easy"]
    mine = next(s for s in bot.seat_list if s.user_id == alice.pk)
    assert (easy["played"], easy["won"]) == (1, int(mine.outcome == "win"))
