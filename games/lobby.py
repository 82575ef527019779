"""Challenges and the lobby: seeks anyone may accept, challenges by link, quick pairing,
and the frames that keep `/ws/lobby/` current (`seek_added`, `seek_removed`, and
`seek_accepted` to the creator). Accepting starts an online game through
`games.play.create_game`.

Quick pairing (`quick_pair`) takes the oldest open seek by someone else with the same game
type, rules and options, or else makes a seek with those options. A seek's options are the
kind's whole option set (Cargo Connect: `{"size": 6}`), so a new option (a time control)
is one more key in the Play button's form and pairs like the size does.

Accepting starts the game with the challenge's time control (games.clocks); an untimed
challenge makes a casual game (not rated).
"""

from __future__ import annotations

import random
from typing import Any

from django.db import transaction
from django.urls import reverse

from accounts.models import START_RATING

from . import clocks, play
from .actors import Actor
from .broadcast import LOBBY_GROUP, send_on_commit, user_group
from .kinds import GameKind, KindError, get_kind
from .models import Challenge, Game
from .protocol import Code, GameError, NotFound

RANDOM = "random"


def seek_info(challenge: Challenge) -> dict[str, Any]:
    player = getattr(challenge.creator, "player", None)
    kind = challenge.kind
    return {
        "id": challenge.id,
        "by": challenge.creator.get_username(),
        "rating": player.rating if player else START_RATING,
        "game_type": challenge.game_type,
        "size": challenge.size,
        "options": kind.describe_options(challenge.options),
        "rules": challenge.rules,
        "color": RANDOM if challenge.seat is None else kind.seat_key(challenge.seat),
        # who plays what, from each side: the creator's seat and the taker's
        "creator_plays": "random" if challenge.seat is None
        else kind.seat_label(challenge.seat),
        "taker_plays": "random" if challenge.seat is None
        else kind.seat_label(1 - challenge.seat),
        "time_control": challenge.time_control,
        "time_control_label": clocks.label(challenge.time_control),
        "rated": bool(challenge.time_control),
        "url": reverse("games:challenge", kwargs={"challenge_id": challenge.id}),
        "accept_url": reverse("games:accept", kwargs={"challenge_id": challenge.id}),
        "cancel_url": reverse("games:cancel", kwargs={"challenge_id": challenge.id}),
    }


def open_seeks() -> list[dict[str, Any]]:
    seeks = Challenge.objects.filter(public=True, status=Challenge.Status.OPEN)
    return [seek_info(c) for c in seeks.select_related("creator__player")[:100]]


def _checked(kind: GameKind, options: dict[str, Any], time_control: str
             ) -> tuple[dict[str, Any], str]:
    """The kind's options and the `games.clocks` code of a time control ("" untimed), or
    `bad_request` naming what is wrong."""
    try:
        options = kind.check_options(options)
        control = clocks.parse(time_control)
    except (KindError, ValueError) as e:
        raise GameError(Code.BAD_REQUEST, str(e)) from None
    return options, control.code if control else clocks.UNTIMED


def create_challenge(user: Any, *, options: dict[str, Any], color: str = RANDOM,
                     public: bool = True, game_type: str = "cargo-connect",
                     time_control: str = "10+5") -> Challenge:
    """A seek in the lobby (public) or a challenge by link; a lobby seek is announced.
    `color` is the creator's seat by name, or "random"; `time_control` a `games.clocks`
    code ("" untimed: the game will be casual)."""
    kind = get_kind(game_type)
    options, time_control = _checked(kind, options, time_control)
    keys = [kind.seat_key(i) for i in range(kind.seat_counts[0])]
    if color != RANDOM and color not in keys:
        raise GameError(Code.BAD_REQUEST,
                        f"colour must be random, {' or '.join(keys)}, not {color!r}")
    with transaction.atomic():
        challenge = Challenge.objects.create(
            creator=user, game_type=game_type, options=options, public=public,
            seat=None if color == RANDOM else keys.index(color), rules=kind.rules_version,
            time_control=time_control,
        )
        if public:
            send_on_commit(LOBBY_GROUP, {"type": "seek_added", "seek": seek_info(challenge)})
    return challenge


def cancel_challenge(user: Any, challenge_id: str) -> None:
    """The creator withdraws an open challenge; a count of 0 means it was taken or gone."""
    with transaction.atomic():
        done = Challenge.objects.filter(
            id=challenge_id, creator=user, status=Challenge.Status.OPEN
        ).update(status=Challenge.Status.CANCELLED)
        if not done:
            raise GameError(Code.GONE, "this challenge is no longer open")
        send_on_commit(LOBBY_GROUP, {"type": "seek_removed", "id": challenge_id})


def accept_challenge(user: Any, challenge_id: str) -> Game:
    """Anyone signed in but the creator accepts an open challenge: the game starts."""
    with transaction.atomic():
        try:
            challenge = (Challenge.objects.select_for_update()
                         .select_related("creator").get(id=challenge_id))
        except Challenge.DoesNotExist:
            raise NotFound("challenge") from None
        if challenge.status != Challenge.Status.OPEN:
            raise GameError(Code.GONE, "this challenge is no longer open")
        if challenge.creator_id == user.pk:
            raise GameError(Code.OWN_CHALLENGE, "you cannot accept your own challenge")
        creator_seat = challenge.seat
        if creator_seat is None:
            creator_seat = random.SystemRandom().randrange(2)
        seats = [Actor.member(user), Actor.member(user)]
        seats[creator_seat] = Actor.member(challenge.creator)
        game = play.create_game(game_type=challenge.game_type, seats=seats,
                                options=challenge.options, rules=challenge.rules,
                                time_control=challenge.time_control,
                                rated=bool(challenge.time_control))
        challenge.status = Challenge.Status.ACCEPTED
        challenge.game = game
        challenge.save(update_fields=["status", "game"])
        send_on_commit(LOBBY_GROUP, {"type": "seek_removed", "id": challenge.id})
        send_on_commit(user_group(challenge.creator_id),
                       {"type": "seek_accepted", "id": challenge.id, "game": game.id,
                        "url": reverse("games:game", kwargs={"game_id": game.id})})
    return game


def quick_pair(user: Any, *, options: dict[str, Any], time_control: str = "10+5",
               game_type: str = "cargo-connect") -> tuple[Game | None, Challenge | None]:
    """Play now: (the game, None) if an open seek with these options and this time control
    was taken, else (None, the seek made for them). A seek taken by someone else meanwhile
    is skipped."""
    kind = get_kind(game_type)
    options, time_control = _checked(kind, options, time_control)
    candidates = (Challenge.objects.filter(
        public=True, status=Challenge.Status.OPEN, game_type=game_type,
        rules=kind.rules_version, options=options, time_control=time_control)
        .exclude(creator=user).order_by("created_at").values_list("id", flat=True)[:20])
    for challenge_id in candidates:
        try:
            return accept_challenge(user, challenge_id), None
        except GameError as refused:
            if refused.error != Code.GONE:
                raise
    mine = Challenge.objects.filter(creator=user, public=True, status=Challenge.Status.OPEN,
                                    game_type=game_type, options=options,
                                    time_control=time_control).first()
    if mine is not None:  # pressing Play twice keeps one seek
        return None, mine
    return None, create_challenge(user, options=options, game_type=game_type,
                                  time_control=time_control)


def my_challenges(user: Any) -> list[Challenge]:
    if not user.is_authenticated:
        return []
    return list(Challenge.objects.filter(creator=user, status=Challenge.Status.OPEN))
