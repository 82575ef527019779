"""Live play: every write to games, turns, challenges and ratings, and every event sent.

Views and consumers parse, call one of these, and render or send. Each write runs in one
transaction that locks the rows it changes (`select_for_update`; on SQLite transactions
serialize anyway); frames go to the channel layer only after commit (`on_commit`).
A refused request raises `Refused` and changes nothing.

`apply_turn(game_id, player=..., ply=..., token=...)` is the one apply path for people and
for CargoBot (player = the bot's side, "blue" or "orange"; `play_bot_turn`, run by the Celery
task `games.tasks.bot_turn`). Games against CargoBot: docs/bot-games.md.
"""

from __future__ import annotations

import json
import logging
import math
import random
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import START_RATING, Player
from engine import EngineError
from engine import Game as EngineGame
from engine.bot import choose_turn
from engine.describe import CARD_NAMES, describe
from engine.notation import format_position, start_position

from .models import SIDES, BotRatingChange, Challenge, Game, RatingChange, Turn

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
MIN_SIZE, MAX_SIZE = 5, 8
CURRENT_RULES = "0.92"
MAX_TOKEN_LENGTH = 32
LOBBY_GROUP = "lobby"
PROVISIONAL_GAMES = 30  # K = 40 for a player's first 30 rated games, then 20
K_PROVISIONAL, K_ESTABLISHED = 40, 20


class Refused(Exception):
    """A request that changes nothing; becomes an `error` frame (or a 400/403/409)."""

    def __init__(self, code: str, message: str, ply: int | None = None, state=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.ply = ply
        self.state = state  # the current state, sent after a stale_ply error

    def frame(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, "ply": self.ply}


class NotFound(Refused):
    def __init__(self, what: str):
        super().__init__("not_found", f"no such {what}")


# --- groups and sending --------------------------------------------------------------------


def game_group(game_id: str) -> str:
    return f"game.{game_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def send_to_group(group: str, frame: dict[str, Any]) -> None:
    """Send one frame to a group now (callers use `send_on_commit`). The frame is encoded
    once here, not once per receiving socket."""
    layer = get_channel_layer()
    if layer is not None:
        text = json.dumps(frame, separators=(",", ":"))
        async_to_sync(layer.group_send)(group, {"type": "frame.send", "text": text})


def send_on_commit(group: str, frame: dict[str, Any]) -> None:
    transaction.on_commit(lambda: send_to_group(group, frame))


# --- reading games -------------------------------------------------------------------------


def get_game(game_id: str) -> Game:
    try:
        return Game.objects.select_related("blue__player", "orange__player").get(id=game_id)
    except Game.DoesNotExist:
        raise NotFound("game") from None


def engine_game(game: Game) -> EngineGame:
    """The engine's view of a game row, from the cached position (no replay)."""
    eg = EngineGame.from_position(game.position)
    eg.tokens = list(game.tokens)
    if game.resigned:
        eg.resigned = SIDES.index(game.resigned)
    return eg


def replay(game: Game, upto: int | None = None) -> EngineGame:
    """The game replayed from its start through `upto` turns (all of them by default)."""
    eg = EngineGame.from_position(game.start)
    for token in game.tokens[:upto]:
        eg.play(token)
    return eg


def _player_info(game: Game, side: str) -> dict[str, Any] | None:
    if game.bot_level and game.bot_side == side:
        return {"name": bot_name(game.bot_level), "rating": BOT_RATINGS.get(game.bot_level),
                "bot": game.bot_level}
    user = game.user_of(side)
    if user is None:
        if game.guest_key and side == game.human_side:
            return {"name": "Guest", "rating": None, "bot": None}
        return None
    player = getattr(user, "player", None)
    if game.kind == Game.Kind.BOT:  # against CargoBot: the vs CargoBot rating
        rating = player.bot_rating if player else START_RATING
    else:
        rating = player.rating if player else START_RATING
    return {"name": user.username, "rating": rating, "bot": None}


def rematch_info(game: Game) -> dict[str, Any] | None:
    if game.rematch_offered_by is None and game.rematch_id is None:
        return None
    return {"offered_by": game.rematch_offered_by, "game": game.rematch_id,
            "url": reverse("games:game", kwargs={"game_id": game.rematch_id})
            if game.rematch_id else None}


def state_of(game: Game, eg: EngineGame | None = None, *, you: str | None = None,
             final: bool = True) -> dict[str, Any]:
    """The state snapshot of docs/live-protocol.md. `final=False` describes an earlier ply
    (replays, catch-up): no resignation, no rematch, status from the engine alone."""
    if eg is None:
        eg = engine_game(game)
    state = describe(eg)
    state.update(
        id=game.id,
        v=PROTOCOL_VERSION,
        status=("finished" if eg.over else "active") if not final else game.status,
        players={side: _player_info(game, side) for side in SIDES},
        you=you,
        turns=list(eg.tokens),
        resigned=game.resigned if final else None,
        rematch=rematch_info(game) if final else None,
    )
    # Front-end split: generic fields for the live shell (to be replaced by the refactor).
    state.update(
        game_type="cargo-connect",
        seats=[{"seat": i, "side": side, "label": side.title(),
                **(state["players"][side] or {"name": None, "rating": None, "bot": None})}
               for i, side in enumerate(SIDES)],
        viewer=SIDES.index(you) if you else None,
        acting=[] if state["over"] or game.resigned and final
        else [SIDES.index(state["to_move"])],
        card_names=list(CARD_NAMES.items()),
    )
    return state


def public_state(game: Game, eg: EngineGame | None = None, *, final: bool = True
                 ) -> dict[str, Any]:
    """The snapshot broadcast to a group: without `you` (each client keeps its own side).
    `final=False`: an earlier ply, as `state_of` says."""
    state = state_of(game, eg, final=final)
    del state["you"]
    del state["viewer"]
    return state


def side_of(game: Game, player) -> str | None:
    """The side `player` plays: a user, or (for CargoBot) the bot's side as a string."""
    if isinstance(player, str):
        return player if game.bot_level and game.bot_side == player else None
    return game.side_of(player)


def turn_frame(turn: Turn, state: dict[str, Any]) -> dict[str, Any]:
    return {"type": "turn", "ply": turn.ply, "token": turn.token, "side": turn.side,
            "events": turn.events, "state": state}


def turn_frames(game: Game, after: int, before: int | None = None) -> list[dict[str, Any]]:
    """Every turn frame for plies >= after (and < before), each with the state after it
    (by replay)."""
    after = max(0, after)
    turns = game.turns.filter(ply__gte=after).order_by("ply")
    if before is not None:
        turns = turns.filter(ply__lt=before)
    turns = list(turns)
    if not turns:
        return []
    eg = replay(game, upto=after)
    frames = []
    for turn in turns:
        eg.play(turn.token)
        # The state right after the turn, as its broadcast had it (a later resignation or
        # rematch offer is in the current state, sent after these frames).
        frames.append(turn_frame(turn, public_state(game, eg, final=False)))
    return frames


def catch_up(game_id: str, *, after: int, you: str | None = None) -> dict[str, Any]:
    """For `sync` and `GET /g/<id>/events`: turn frames for plies >= after, then the state."""
    game = get_game(game_id)
    return {"turns": turn_frames(game, after), "state": state_of(game, you=you)}


def replay_data(game_id: str) -> dict[str, Any]:
    """`GET /g/<id>/replay.json`: the state at every ply and every turn with its events."""
    game = get_game(game_id)
    eg = replay(game, upto=0)
    states = [public_state(game, eg, final=False)]
    turns = []
    for turn in game.turns.order_by("ply"):
        eg.play(turn.token)
        states.append(public_state(game, eg, final=False))
        turns.append({"ply": turn.ply, "token": turn.token, "side": turn.side,
                      "events": turn.events})
    if game.resigned:
        states[-1] = public_state(game, engine_game(game))
    return {"id": game.id, "states": states, "turns": turns, "resigned": game.resigned,
            "result": states[-1]["result"]}


def record_text(game_id: str, site: str) -> tuple[Game, str]:
    """The game as a record in the notation, with Blue, Orange, Date, Result, Site."""
    game = get_game(game_id)
    eg = replay(game)
    if game.resigned:
        eg.resign(SIDES.index(game.resigned))
    names = {s: (_player_info(game, s) or {"name": "?"})["name"] for s in SIDES}
    result = eg.result()
    eg.headers.update(
        Blue=names["blue"],
        Orange=names["orange"],
        Date=game.created_at.strftime("%Y.%m.%d"),
        Result=_result_header(result),
        Site=site,
    )
    return game, eg.record()


def _result_header(result: dict[str, Any] | None) -> str:
    if result is None:
        return "*"
    return {"blue": "1-0", "orange": "0-1", None: "1/2-1/2"}[result["winner"]]


# --- making games ----------------------------------------------------------------------------


def _check_size(size) -> int:
    try:
        size = int(size)
    except (TypeError, ValueError):
        raise Refused("bad_request", "bay size must be a number from 5 to 8") from None
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise Refused("bad_request", f"bay size must be 5 to 8, not {size}")
    return size


def create_game(*, blue, orange, size: int, rules: str = CURRENT_RULES, rated: bool = True,
                kind: str = Game.Kind.HUMAN, bot_level: str | None = None,
                bot_side: str | None = None, guest_key: str | None = None) -> Game:
    """A new game from the empty bay (a short unguessable id is retried on collision)."""
    start = format_position(start_position(_check_size(size), rules))
    bot_seed = secrets.randbits(48) if bot_level else None
    for _ in range(5):
        try:
            with transaction.atomic():
                return Game.objects.create(
                    blue=blue, orange=orange, size=size, rules=rules, rated=rated, kind=kind,
                    bot_level=bot_level, bot_side=bot_side, guest_key=guest_key,
                    bot_seed=bot_seed, start=start, position=start,
                )
        except IntegrityError:  # pragma: no cover - a 10-character base62 id collided
            continue
    raise RuntimeError("could not find a free game id")


def seek_info(challenge: Challenge) -> dict[str, Any]:
    player = getattr(challenge.creator, "player", None)
    return {
        "id": challenge.id,
        "by": challenge.creator.username,
        "rating": player.rating if player else START_RATING,
        "size": challenge.size,
        "rules": challenge.rules,
        "color": challenge.color,
        "url": f"/challenge/{challenge.id}",
        "accept_url": reverse("games:accept", kwargs={"challenge_id": challenge.id}),
    }


def open_seeks() -> list[dict[str, Any]]:
    seeks = Challenge.objects.filter(public=True, status=Challenge.Status.OPEN)
    return [seek_info(c) for c in seeks.select_related("creator__player")[:100]]


def create_challenge(user, *, size, color: str = "random", public: bool = True) -> Challenge:
    """A seek in the lobby (public) or a challenge by link; a lobby seek is announced."""
    size = _check_size(size)
    if color not in Challenge.Color.values:
        raise Refused("bad_request", f"colour must be random, blue or orange, not {color!r}")
    with transaction.atomic():
        challenge = Challenge.objects.create(
            creator=user, size=size, color=color, public=public, rules=CURRENT_RULES
        )
        if public:
            send_on_commit(LOBBY_GROUP, {"type": "seek_added", "seek": seek_info(challenge)})
    return challenge


def cancel_challenge(user, challenge_id: str) -> None:
    """The creator withdraws an open challenge; a count of 0 means it was taken or gone."""
    with transaction.atomic():
        done = Challenge.objects.filter(
            id=challenge_id, creator=user, status=Challenge.Status.OPEN
        ).update(status=Challenge.Status.CANCELLED)
        if not done:
            raise Refused("gone", "this challenge is no longer open")
        send_on_commit(LOBBY_GROUP, {"type": "seek_removed", "id": challenge_id})


def accept_challenge(user, challenge_id: str) -> Game:
    """Anyone signed in but the creator accepts an open challenge: the game starts."""
    with transaction.atomic():
        try:
            challenge = (Challenge.objects.select_for_update()
                         .select_related("creator").get(id=challenge_id))
        except Challenge.DoesNotExist:
            raise NotFound("challenge") from None
        if challenge.status != Challenge.Status.OPEN:
            raise Refused("gone", "this challenge is no longer open")
        if challenge.creator_id == user.pk:
            raise Refused("own_challenge", "you cannot accept your own challenge")
        creator_side = challenge.color
        if creator_side == Challenge.Color.RANDOM:
            creator_side = random.SystemRandom().choice(SIDES)
        pair = {creator_side: challenge.creator, _other(creator_side): user}
        game = create_game(blue=pair["blue"], orange=pair["orange"], size=challenge.size,
                           rules=challenge.rules)
        challenge.status = Challenge.Status.ACCEPTED
        challenge.game = game
        challenge.save(update_fields=["status", "game"])
        url = f"/g/{game.id}"
        send_on_commit(LOBBY_GROUP, {"type": "seek_removed", "id": challenge.id})
        send_on_commit(user_group(challenge.creator_id),
                       {"type": "seek_accepted", "id": challenge.id, "game": game.id,
                        "url": url})
    return game


def _other(side: str) -> str:
    return "orange" if side == "blue" else "blue"


# --- playing ---------------------------------------------------------------------------------


@dataclass
class TurnResult:
    frame: dict[str, Any]
    duplicate: bool = False  # a resent turn: answer the sender only


def _lock_game(game_id: str) -> Game:
    """The game row, locked until the transaction ends, with both players' users and
    ratings attached. Two simple queries: compiling one five-table join with FOR UPDATE
    cost more CPU than the second round trip (docs/live-play.md, profile)."""
    try:
        game = Game.objects.select_for_update().get(id=game_id)
    except Game.DoesNotExist:
        raise NotFound("game") from None
    ids = [pk for pk in (game.blue_id, game.orange_id) if pk]
    if ids:
        users = {u.pk: u for u in get_user_model().objects.select_related("player")
                 .filter(pk__in=ids)}
        if game.blue_id:
            game.blue = users[game.blue_id]
        if game.orange_id:
            game.orange = users[game.orange_id]
    return game


def apply_turn(game_id: str, *, player, ply: int, token: str) -> TurnResult:
    """Play `token` at `ply` for `player` (a user, or the bot's side). Exactly once per ply:
    a resent turn for an applied ply gets the same frame back; anything else is refused."""
    with transaction.atomic():
        game = _lock_game(game_id)
        side = side_of(game, player)
        if side is None:
            raise Refused("not_a_player", "only the players may play", game.ply)
        if ply < game.ply:
            turn = game.turns.filter(ply=ply).first()
            if turn is not None and turn.token == token and turn.side == side:
                frame = turn_frames(game, ply, before=ply + 1)[0]  # only this ply's
                return TurnResult(frame, duplicate=True)
            raise Refused("stale_ply", f"ply {ply} was already played; the game is at "
                          f"ply {game.ply}", game.ply, state_of(game, you=side))
        if game.is_over:
            raise Refused("game_over", "the game is over", game.ply)
        if ply != game.ply:
            raise Refused("stale_ply", f"the game is at ply {game.ply}, not {ply}", game.ply,
                          state_of(game, you=side))
        eg = engine_game(game)
        to_move = describe_side(eg)
        if side != to_move:
            raise Refused("not_your_turn", f"it is {to_move}'s turn", game.ply)
        try:
            events = eg.play(token)
        except EngineError as e:
            raise Refused("illegal", str(e), game.ply) from None
        turn = Turn.objects.create(game=game, ply=ply, token=token, side=side, events=events)
        game.position = format_position(eg.position)
        game.ply = eg.ply
        game.tokens = list(eg.tokens)
        fields = ["position", "ply", "tokens"]
        if eg.over:
            fields += _finish(game, eg)
        fields += _await_bot(game, None if eg.over else describe_side(eg))
        game.save(update_fields=fields)
        frame = turn_frame(turn, public_state(game, eg))
        send_on_commit(game_group(game.id), frame)
        _send_bot_task_on_commit(game)  # after the frame: the page sees this turn first
    return TurnResult(frame)


def describe_side(eg: EngineGame) -> str:
    return SIDES[eg.position.side]


def resign(game_id: str, *, player, ply: int | None = None) -> dict[str, Any]:
    """A player resigns at any time during the game; the other wins."""
    with transaction.atomic():
        game = _lock_game(game_id)
        side = side_of(game, player)
        if side is None:
            raise Refused("not_a_player", "only the players may resign", game.ply)
        if game.is_over:
            raise Refused("game_over", "the game is over", game.ply)
        eg = engine_game(game)
        events = eg.resign(SIDES.index(side))
        game.resigned = side
        fields = ["resigned", *_finish(game, eg), *_await_bot(game, None)]
        game.save(update_fields=fields)
        frame = {"type": "resigned", "ply": game.ply, "side": side, "events": events,
                 "state": public_state(game, eg)}
        send_on_commit(game_group(game.id), frame)
    return frame


def _finish(game: Game, eg: EngineGame) -> list[str]:
    """Record the result (inside the caller's transaction) and update ratings once."""
    result = eg.result()
    assert result is not None
    game.status = Game.Status.FINISHED
    game.winner = result["winner"]
    game.score_blue = result["blue"]
    game.score_orange = result["orange"]
    game.finished_at = timezone.now()
    if game.rated and game.kind == Game.Kind.HUMAN and game.blue_id and game.orange_id \
            and game.blue_id != game.orange_id:
        _rate(game)
    elif game.kind == Game.Kind.BOT and game.bot_level:
        _rate_vs_bot(game)
    return ["status", "winner", "score_blue", "score_orange", "finished_at"]


def expected_score(rating: int, opponent: int) -> float:
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def k_factor(rated_games: int) -> int:
    return K_PROVISIONAL if rated_games < PROVISIONAL_GAMES else K_ESTABLISHED


def new_rating(rating: int, opponent: int, score: float, rated_games: int) -> int:
    """Elo: rating + K (score - expected), rounded half up."""
    change = k_factor(rated_games) * (score - expected_score(rating, opponent))
    return rating + math.floor(change + 0.5)


def _rate(game: Game) -> None:
    if RatingChange.objects.filter(game=game).exists():
        return
    ids = sorted([game.blue_id, game.orange_id])
    for user_id in ids:
        Player.objects.get_or_create(user_id=user_id)
    players = {p.user_id: p for p in Player.objects.select_for_update().filter(user_id__in=ids)}
    blue, orange = players[game.blue_id], players[game.orange_id]
    score = {"blue": 1.0, "orange": 0.0, None: 0.5}[game.winner]
    ratings = {
        "blue": new_rating(blue.rating, orange.rating, score, blue.rated_games),
        "orange": new_rating(orange.rating, blue.rating, 1 - score, orange.rated_games),
    }
    for side, player in (("blue", blue), ("orange", orange)):
        RatingChange.objects.create(game=game, user_id=player.user_id, before=player.rating,
                                    after=ratings[side])
        player.rating = ratings[side]
        player.rated_games += 1
        player.save(update_fields=["rating", "rated_games"])
    # The state shows the new ratings.
    for side in SIDES:
        user = game.user_of(side)
        user.player = players[user.pk]


def offer_rematch(game_id: str, *, user) -> dict[str, Any]:
    """After a game: the first player offers, the other accepting starts a new game with
    colours swapped. Pushed to the game's group as a `rematch` frame."""
    with transaction.atomic():
        game = _lock_game(game_id)
        side = game.side_of(user)
        if side is None:
            raise Refused("not_a_player", "only the players may offer a rematch", game.ply)
        if not game.is_over:
            raise Refused("game_not_over", "a rematch is offered after the game", game.ply)
        if game.bot_level and game.rematch_id is None:  # CargoBot always accepts
            game.rematch_offered_by = side
            game.rematch = create_bot_game(
                user=user if user.is_authenticated else None,
                guest_key=game.guest_key, level=game.bot_level, size=game.size,
                color=game.bot_side,
            )
            game.save(update_fields=["rematch_offered_by", "rematch"])
        elif game.rematch_id is None:
            if game.rematch_offered_by is None:
                game.rematch_offered_by = side
                game.save(update_fields=["rematch_offered_by"])
            elif game.rematch_offered_by != side:
                game.rematch = create_game(
                    blue=game.orange, orange=game.blue, size=game.size, rules=game.rules,
                    rated=game.rated, kind=game.kind,
                )
                game.save(update_fields=["rematch"])
        frame = {"type": "rematch", "ply": game.ply, "rematch": rematch_info(game),
                 "state": public_state(game)}
        send_on_commit(game_group(game.id), frame)
    return frame


# --- profiles --------------------------------------------------------------------------------


def profile(username: str) -> dict[str, Any]:
    User = get_user_model()
    try:
        user = User.objects.select_related("player").get(username=username)
    except User.DoesNotExist:
        raise NotFound("player") from None
    player = getattr(user, "player", None)
    mine = Game.objects.filter(Q(blue=user) | Q(orange=user))
    counts = mine.filter(status=Game.Status.FINISHED).aggregate(
        played=Count("pk"),
        won=Count("pk", filter=Q(blue=user, winner="blue") | Q(orange=user, winner="orange")),
        lost=Count("pk", filter=Q(blue=user, winner="orange") | Q(orange=user, winner="blue")),
    )
    recent = [_profile_row(game, user)
              for game in mine.select_related("blue", "orange").order_by("-created_at")[:20]]
    bot_games = [
        {**_profile_row(game, user), "change": getattr(game, "bot_rating_change", None)}
        for game in mine.filter(kind=Game.Kind.BOT).select_related("bot_rating_change")
        .order_by("-created_at")[:20]
    ]
    return {
        "profile_user": user,
        "rating": player.rating if player else START_RATING,
        **counts,
        "recent": recent,
        "bot_rating": player.bot_rating if player else START_RATING,
        "bot_rated_games": player.bot_games if player else 0,
        "bot_games": bot_games,
    }


def _profile_row(game: Game, user) -> dict[str, Any]:
    """One game in a profile's lists: the user's side, the opponent's name, the outcome."""
    side = game.side_of(user)
    other = _other(side)
    if game.bot_level and game.bot_side == other:
        opponent = bot_name(game.bot_level)
    else:
        opponent_user = game.user_of(other)
        opponent = opponent_user.username if opponent_user else "?"
    if game.status != Game.Status.FINISHED:
        outcome = "playing"
    elif game.winner is None:
        outcome = "draw"
    else:
        outcome = "won" if game.winner == side else "lost"
    return {"game": game, "side": side, "opponent": opponent, "outcome": outcome}


# --- CargoBot --------------------------------------------------------------------------------
# Casual games against CargoBot (docs/bot-games.md). The bot's turn is computed by the Celery
# task games.tasks.bot_turn(game_id, ply), sent after the human's turn commits, and played
# through apply_turn like anyone's; the task for a ply that is no longer current does nothing.

# The fixed ratings of the three levels for the vs CargoBot rating (docs/bot-games.md).
BOT_RATINGS = {"easy": 800, "medium": 1200, "hard": 1600}
BOT_SWEEP_AFTER = timedelta(seconds=20)  # a game waiting this long on the bot is re-enqueued
BOT_SWEEP_EXPIRES = 60  # seconds: a sweep's re-sent task is dropped if not started by then


def bot_name(level: str) -> str:
    return f"CargoBot {level.title()}"


def create_bot_game(*, user, guest_key: str | None, level: str, size, color: str = "random"
                    ) -> Game:
    """A casual game against CargoBot at `level`: `user` (signed in) or the guest whose
    browser session is `guest_key` plays `color`. If CargoBot moves first, its task is
    sent once the game is committed."""
    if level not in BOT_RATINGS:
        raise Refused("bad_request", f"level must be easy, medium or hard, not {level!r}")
    if color not in Challenge.Color.values:
        raise Refused("bad_request", f"colour must be random, blue or orange, not {color!r}")
    if user is None and not guest_key:
        raise Refused("not_a_player", "a guest game needs a browser session")
    size = _check_size(size)
    human = color if color != Challenge.Color.RANDOM else random.SystemRandom().choice(SIDES)
    with transaction.atomic():
        game = create_game(
            blue=user if human == "blue" else None, orange=user if human == "orange" else None,
            size=size, rated=user is not None, kind=Game.Kind.BOT, bot_level=level,
            bot_side=_other(human), guest_key=None if user is not None else guest_key,
        )
        fields = _await_bot(game, "blue")
        game.save(update_fields=fields)
        _send_bot_task_on_commit(game)
    return game


def active_bot_games(player) -> list[Game]:
    """The games against CargoBot still being played by a member or a guest."""
    games = Game.objects.filter(kind=Game.Kind.BOT, status=Game.Status.ACTIVE)
    if player is not None and player.is_authenticated:
        games = games.filter(Q(blue=player) | Q(orange=player))
    elif getattr(player, "guest_key", None):
        games = games.filter(guest_key=player.guest_key)
    else:
        return []
    return list(games.order_by("-created_at")[:10])


def _await_bot(game: Game, to_move: str | None) -> list[str]:
    """Inside the transaction that changed a game: note whether it now waits on CargoBot
    (`bot_waiting_since`); the fields to save."""
    if not game.bot_side:
        return []
    waiting = to_move == game.bot_side and not game.is_over
    game.bot_waiting_since = timezone.now() if waiting else None
    return ["bot_waiting_since"]


def _send_bot_task_on_commit(game: Game) -> None:
    """If the game now waits on CargoBot, send the bot's task for this ply once the
    transaction commits (never before: the task must see the human's turn)."""
    if game.bot_waiting_since is None or game.is_over:
        return
    game_id, ply = game.id, game.ply
    # robust: a broker that is down must not fail the human's committed turn (the sweep
    # sends the task again later); in the embedded default the task runs here, eagerly.
    transaction.on_commit(lambda: enqueue_bot_turn(game_id, ply), robust=True)


def enqueue_bot_turn(game_id: str, ply: int, **options) -> None:
    """Send the bot's task for (game, ply); with CELERY_TASK_ALWAYS_EAGER it runs now."""
    from .tasks import bot_turn

    bot_turn.apply_async((game_id, ply), **options)


def play_bot_turn(game_id: str, ply: int, *, level: str | None = None) -> str:
    """CargoBot's turn at `ply`, through `apply_turn` with the bot's side. Does nothing if
    the game is gone, over, or no longer at `ply` with the bot to move. Returns what
    happened: "played", or why nothing was ("stale_ply", "game_over", "duplicate", ...).
    `level` overrides the game's level (the task's fallback when time runs short)."""
    try:
        game = Game.objects.get(id=game_id)
    except Game.DoesNotExist:
        return "not_found"
    if not game.bot_level or not game.bot_side:
        return "not_a_bot_game"
    if game.is_over:
        return "game_over"
    if game.ply != ply:
        return "stale_ply"
    eg = engine_game(game)
    if describe_side(eg) != game.bot_side:
        return "not_your_turn"
    # Thinking happens outside the transaction: no row lock is held meanwhile.
    token = choose_turn(eg.position, level or game.bot_level, game.bot_seed or 0)
    try:
        result = apply_turn(game_id, player=game.bot_side, ply=ply, token=token)
    except Refused as refused:  # the game moved on (a resign, another copy of this task)
        if refused.code == "illegal":
            log.error("CargoBot chose an illegal turn %r in game %s at ply %s: %s",
                      token, game_id, ply, refused.message)
        return refused.code
    return "duplicate" if result.duplicate else "played"


def stalled_bot_games(older_than: timedelta = BOT_SWEEP_AFTER) -> list[tuple[str, int]]:
    """(id, ply) of active games that have waited on CargoBot longer than `older_than`."""
    cutoff = timezone.now() - older_than
    games = Game.objects.filter(status=Game.Status.ACTIVE, bot_waiting_since__lt=cutoff)
    return list(games.order_by("bot_waiting_since").values_list("id", "ply")[:500])


def sweep_bot_games(older_than: timedelta = BOT_SWEEP_AFTER) -> list[str]:
    """Send the bot's task again for every game that waited on it too long (its task was
    lost: no worker was running, the broker was down, a worker died mid-turn). Duplicates
    are harmless: the task plays once per ply."""
    swept = []
    for game_id, ply in stalled_bot_games(older_than):
        enqueue_bot_turn(game_id, ply, expires=BOT_SWEEP_EXPIRES)
        swept.append(game_id)
    if swept:
        log.info("re-sent CargoBot's turn for %d game(s): %s", len(swept), ", ".join(swept))
    return swept


def nudge_bot(game: Game) -> bool:
    """Opening a game that has waited on CargoBot too long sends its task again (in the
    embedded default no beat runs the sweep)."""
    since = game.bot_waiting_since
    if since is None or game.is_over or timezone.now() - since < BOT_SWEEP_AFTER:
        return False
    enqueue_bot_turn(game.id, game.ply, expires=BOT_SWEEP_EXPIRES)
    return True


def _rate_vs_bot(game: Game) -> None:
    """Inside the transaction that records the result: the member's vs CargoBot rating
    against the level's fixed rating, once per game (a guest's game changes nothing)."""
    user_id = game.blue_id or game.orange_id
    if user_id is None or BotRatingChange.objects.filter(game=game).exists():
        return
    Player.objects.get_or_create(user_id=user_id)
    player = Player.objects.select_for_update().get(user_id=user_id)
    score = {game.human_side: 1.0, game.bot_side: 0.0, None: 0.5}[game.winner]
    bot_rating = BOT_RATINGS[game.bot_level]
    after = new_rating(player.bot_rating, bot_rating, score, player.bot_games)
    BotRatingChange.objects.create(game=game, user_id=user_id, level=game.bot_level,
                                   bot_rating=bot_rating, score=score,
                                   before=player.bot_rating, after=after)
    player.bot_rating = after
    player.bot_games += 1
    player.save(update_fields=["bot_rating", "bot_games"])
    game.user_of(game.human_side).player = player  # the state shows the new rating
