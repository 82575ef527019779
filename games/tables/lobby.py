"""Tables and the lobby (docs/tables.md): seeks anyone may join, challenges by link, quick
pairing, and the frames that keep `/ws/lobby/` current (what a table shows: its rows, its
seats, a challenge's shape, is games.tables.listing).

A table is a `Challenge` with `seat_count` seats (one of the kind's `seat_counts`) and a
host (`creator`), who sits at it from the start. People join and leave (`join_table`,
`leave_table`; the host removes someone with `leave_table(seat=…)`) until it starts; the
host may place bots in chosen seats when making it. It starts when its last seat is taken
(so a two-seat seek starts at once when someone accepts it, as it always did), or early
when the host starts it (`start_table`) with bots at a chosen level in the empty seats.
The seats are drawn at random at the start unless the host chose their own seat (then
everyone sits where they chose). A rated table takes members only and no bots; guests may
sit at casual ones. Starting makes an online game through `games.turns.play.create_game`.

Frames (to `lobby` for public tables; to the seated members for a table by link):
`seek_added` (with the table's `seek_info`), `seek_changed` (a join, a leave, a removal:
`change`, `seat`, `name` and the table as it is now), `seek_removed` (started or
cancelled), and `seek_accepted` (the game's URL) to each seated member but the one whose
join started it.

A challenge to one member (`create_challenge(invited=…)`, made through the API: lichess's
challenge to a player, issue #47) is a table by link with one free seat, theirs: only they
take it (`accept_challenge`, `join_table`) or decline it (`decline_challenge`). Frames to
the members' own groups (`user.<id>`: their lobby sockets and their API event streams):
`challenge` to the invited member when it is made, `challengeDeclined` to its maker,
`challengeCanceled` to the invited member when its maker withdraws it (lichess's names),
each with the challenge as `challenge_info` shapes it.

Quick pairing (`quick_pair`) takes the oldest open seek by someone else with the same game
type, rules, options and time control, or else makes a seek with those options. A seek's
options are the kind's whole option set (Cargo Connect: `{"size": 6}`), so a new option is
one more key in the Play button's form and pairs like the size does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.urls import reverse

from games import signals
from games.actors import Actor
from games.frames.broadcast import LOBBY_GROUP, send_on_commit, user_group
from games.frames.protocol import Code, GameError, NotFound
from games.kinds import GameKind, KindError, default_kind, get_kind
from games.models import Challenge, Game, TableSeat
from games.tables.listing import (
    DECLINE_REASONS,
    RANDOM,
    challenge_info,
    creator_ratings,
    free_seats,
    holder_name,
    my_challenges,
    open_seeks,
    seat_label,
    seek_info,
)
from games.timing import clocks, correspondence
from games.turns import play

__all__ = ["DECLINE_REASONS", "MIN_PEOPLE", "RANDOM", "accept_challenge", "cancel_challenge",
           "challenge_info", "create_challenge", "creator_ratings", "decline_challenge",
           "join_table", "leave_table", "my_challenges", "open_seeks", "quick_pair",
           "seek_info", "start_table"]

MIN_PEOPLE = 2  # a table is for people: one person with bots is a game against the bots


def _checked(kind: GameKind, options: dict[str, Any], time_control: str
             ) -> tuple[dict[str, Any], str]:
    """The kind's options and the `games.timing.clocks` code of a time control ("" untimed), or
    `bad_request` naming what is wrong."""
    try:
        options = kind.check_options(options)
        control = clocks.parse(time_control)
    except (KindError, ValueError) as e:
        raise GameError(Code.BAD_REQUEST, str(e)) from None
    return options, control.code if control else clocks.UNTIMED


def _checked_bots(kind: GameKind, bots: Mapping[int, str], seat_count: int, rated: bool,
                  host_seat: int | None) -> dict[int, str]:
    bots = {int(i): level for i, level in bots.items() if level}
    if not bots:
        return {}
    if rated:
        raise GameError(Code.BAD_REQUEST, "a rated table takes no bots: make it casual")
    for index, level in bots.items():
        if level not in kind.bot_levels:
            raise GameError(Code.BAD_REQUEST, f"{kind.name} has no bot level {level!r}")
        if not 0 <= index < seat_count or index == host_seat:
            raise GameError(Code.BAD_REQUEST, f"no free seat {index + 1} for a bot")
    if seat_count - len(bots) < MIN_PEOPLE:
        room = seat_count - MIN_PEOPLE
        raise GameError(Code.BAD_REQUEST, f"a table needs at least {MIN_PEOPLE} people, so a "
                        f"{seat_count}-player table has room for "
                        + (f"{room} bot{'s' if room > 1 else ''}" if room else
                           "no bot (one person with bots is a game against the bots, "
                           "which tables do not make)")
                        + ": leave that seat open or choose more players")
    return bots


def create_challenge(user: Any, *, options: dict[str, Any], color: str = RANDOM,
                     public: bool = True, game_type: str | None = None,
                     time_control: str = "10+5", seats: int | None = None,
                     rated: bool | None = None, bots: Mapping[int, str] | None = None,
                     invited: Any = None) -> Challenge:
    """A table: a seek in the lobby (public) or a challenge by link; a lobby seek is
    announced. `color` is the host's seat by name, or "random" (every seat drawn at the
    start); `time_control` a `games.timing.clocks` code ("" untimed: the game will be casual);
    `seats` one of the kind's seat counts (default: the largest); `rated` (default: when
    timed); `bots` a level for chosen seats (casual tables only); `game_type` a kind's key
    (default: the default game's). `invited`: a member the challenge is to (never public;
    the table must leave one free seat, theirs), told by a `challenge` frame."""
    kind = get_kind(game_type) if game_type else default_kind()
    game_type = kind.key
    options, time_control = _checked(kind, options, time_control)
    seat_count = kind.default_seat_count if seats is None else seats
    if seat_count not in kind.seat_counts:
        raise GameError(Code.BAD_REQUEST, f"{kind.name} is played by "
                        f"{' or '.join(map(str, kind.seat_counts))}, not {seat_count}")
    keys = [kind.seat_key(i) for i in range(seat_count)]
    if color != RANDOM and color not in keys:
        raise GameError(Code.BAD_REQUEST,
                        f"colour must be random, {' or '.join(keys)}, not {color!r}")
    host_seat = None if color == RANDOM else keys.index(color)
    rated = bool(time_control) and (True if rated is None else rated)
    bot_seats = _checked_bots(kind, bots or {}, seat_count, rated, host_seat)
    if invited is not None:
        _check_invited(user, invited, seat_count, bot_seats)
        public = False
    with transaction.atomic():
        correspondence.refuse_past_cap(user.pk, time_control)
        challenge = Challenge.objects.create(
            creator=user, game_type=game_type, options=options, public=public,
            seat=host_seat, rules=kind.rules_version, time_control=time_control,
            seat_count=seat_count, rated=rated, invited=invited,
        )
        sitting = host_seat if host_seat is not None else \
            next(i for i in range(seat_count) if i not in bot_seats)
        TableSeat.objects.bulk_create([
            TableSeat(challenge=challenge, index=sitting, user=user),
            *(TableSeat(challenge=challenge, index=i, bot_level=level)
              for i, level in sorted(bot_seats.items())),
        ])
        if public:
            send_on_commit(LOBBY_GROUP, {"type": "seek_added", "seek": seek_info(challenge)})
        if invited is not None:
            send_on_commit(user_group(invited.pk), {"type": "challenge",
                                                    "challenge": challenge_info(challenge)})
            signals.challenge_sent.send(__name__, challenge=challenge)
    return challenge


def _check_invited(user: Any, invited: Any, seat_count: int, bot_seats: dict[int, str]
                   ) -> None:
    """A challenge to one member: not to oneself, and it leaves them one seat."""
    if invited.pk == user.pk:
        raise GameError(Code.OWN_CHALLENGE, "you cannot challenge yourself")
    if not invited.is_active:
        raise NotFound("member")
    if seat_count - 1 - len(bot_seats) != 1:
        raise GameError(Code.BAD_REQUEST, f"a challenge to a member leaves one seat, theirs: "
                        f"a {seat_count}-player challenge needs bots in the other "
                        f"{seat_count - 2} seat{'s' if seat_count > 3 else ''} (a casual "
                        "game), or make a table that anyone may join")


def _locked(challenge_id: str) -> Challenge:
    """The open table, locked (its seats change only under this lock)."""
    try:
        challenge = (Challenge.objects.select_for_update(of=("self", "creator"))
                     .select_related("creator", "invited").get(id=challenge_id))
    except Challenge.DoesNotExist:
        raise NotFound("challenge") from None
    if challenge.status != Challenge.Status.OPEN:
        raise GameError(Code.GONE, "this challenge is no longer open")
    return challenge


def _row_of(challenge: Challenge, actor: Actor) -> TableSeat | None:
    for row in challenge.seat_rows:
        if actor.kind == "member" and row.user_id == actor.user_id:
            return row
        if actor.kind == "guest" and row.guest_key == actor.guest_key:
            return row
    return None


def _is_host(challenge: Challenge, actor: Actor | None) -> bool:
    return actor is not None and actor.kind == "member" and \
        actor.user_id == challenge.creator_id


def _announce_change(challenge: Challenge, change: str, index: int, name: str,
                     also: tuple[int, ...] = ()) -> None:
    """`seek_changed` to the lobby (a public table) or to the table's members (by link;
    `also` for a member who just left)."""
    challenge.forget_seats()
    frame = {"type": "seek_changed", "id": challenge.id, "change": change, "seat": index,
             "name": name, "seek": seek_info(challenge)}
    if challenge.public:
        send_on_commit(LOBBY_GROUP, frame)
        return
    members = {row.user_id for row in challenge.seat_rows if row.user_id is not None}
    for user_id in sorted(members | set(also)):
        send_on_commit(user_group(user_id), frame)


def join_table(actor: Actor, challenge_id: str, seat: int | None = None) -> Game | None:
    """A member or a guest (casual tables only) sits down: at `seat` if the seats are
    placed and it is free, else at the first free seat. The table starts when this fills
    it: its game, else None."""
    with transaction.atomic():
        challenge = _locked(challenge_id)
        return _join(challenge, actor, seat)


def _join(challenge: Challenge, actor: Actor, seat: int | None) -> Game | None:
    if actor.kind == "bot":
        raise GameError(Code.BAD_REQUEST, "bots are placed by the host")
    if actor.kind == "guest" and challenge.rated:
        raise GameError(Code.NOT_A_PLAYER, "a rated table takes members only: sign in")
    correspondence.refuse_guest(actor.kind, challenge.time_control)
    if _is_host(challenge, actor):
        raise GameError(Code.OWN_CHALLENGE, "you cannot accept your own challenge")
    invited = challenge.invited
    if invited is not None and actor.user_id != invited.pk:
        raise GameError(Code.NOT_A_PLAYER, f"this challenge is for {invited.get_username()}: "
                        "only they may take it")
    if _row_of(challenge, actor) is not None:
        raise GameError(Code.BAD_REQUEST, "you already sit at this table")
    if actor.user_id is not None:
        correspondence.refuse_past_cap(actor.user_id, challenge.time_control)
    free = free_seats(challenge)
    if not free:  # pragma: no cover - a full table has started
        raise GameError(Code.GONE, "this table is full")
    index = free[0]
    if seat is not None and challenge.placed:
        if seat not in free:
            raise GameError(Code.BAD_REQUEST, f"{seat_label(challenge, seat)} is taken")
        index = seat
    row = TableSeat.objects.create(challenge=challenge, index=index, **actor.seat_fields())
    challenge.seat_rows.append(row)
    challenge.seat_rows.sort(key=lambda r: r.index)
    if len(free) == 1:
        return _start(challenge, starter=actor)
    _announce_change(challenge, "joined", index, actor.name or "Guest")
    signals.table_joined.send(__name__, challenge=challenge, name=actor.name or "A guest")
    return None


def accept_challenge(user: Any, challenge_id: str) -> Game:
    """A member takes the last free seat of an open table (a two-seat seek or challenge:
    its only one), and the game starts. A table that would still wait for others after
    this join is left as it was: `join_table` sits down at it."""
    with transaction.atomic():
        challenge = _locked(challenge_id)
        game = _join(challenge, Actor.member(user), None)
        if game is None:
            raise GameError(Code.BAD_REQUEST, "this table waits for more players: join it")
    return game


def leave_table(actor: Actor | None, challenge_id: str, seat: int | None = None) -> None:
    """Someone leaves an open table; the host leaving cancels it. With `seat`, the host
    removes whoever sits there (a person or a bot)."""
    if actor is None:
        raise GameError(Code.NOT_A_PLAYER, "you do not sit at this table")
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if seat is not None:
            if not _is_host(challenge, actor):
                raise GameError(Code.NOT_A_PLAYER, "only the host removes someone")
            row = next((r for r in challenge.seat_rows if r.index == seat), None)
            if row is None or row.user_id == challenge.creator_id:
                raise GameError(Code.BAD_REQUEST, "no one to remove from that seat")
            change = "removed"
        else:
            row = _row_of(challenge, actor)
            if row is None:
                raise GameError(Code.NOT_A_PLAYER, "you do not sit at this table")
            if _is_host(challenge, actor):
                _cancel(challenge)
                return
            change = "left"
        name = holder_name(row, challenge.kind)
        left_user = row.user_id
        row.delete()
        _announce_change(challenge, change, row.index, name,
                         also=(left_user,) if left_user is not None else ())


def start_table(user: Any, challenge_id: str, bot_level: str) -> Game:
    """The host starts a casual table early: bots at `bot_level` in the empty seats."""
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.creator_id != user.pk:
            raise GameError(Code.NOT_A_PLAYER, "only the host starts the table")
        kind = challenge.kind
        if challenge.rated:
            raise GameError(Code.BAD_REQUEST, "a rated table takes no bots: it starts when "
                            "every seat is taken")
        if bot_level not in kind.bot_levels:
            raise GameError(Code.BAD_REQUEST, f"{kind.name} has no bot level {bot_level!r}")
        people = [r for r in challenge.seat_rows if not r.bot_level]
        if len(people) < MIN_PEOPLE:
            raise GameError(Code.BAD_REQUEST, "wait for at least one other player")
        bots = TableSeat.objects.bulk_create([
            TableSeat(challenge=challenge, index=i, bot_level=bot_level)
            for i in free_seats(challenge)])
        challenge.seat_rows.extend(bots)
        challenge.seat_rows.sort(key=lambda r: r.index)
        return _start(challenge, starter=Actor.member(user))


def _actor_of(row: TableSeat) -> Actor:
    if row.bot_level:
        return Actor.bot(row.bot_level)
    if row.user is not None:
        return Actor.member(row.user)
    assert row.guest_key
    return Actor.guest(row.guest_key)


def _start(challenge: Challenge, starter: Actor) -> Game:
    """A full table becomes its game: the seats as chosen, or drawn at random."""
    actors = [_actor_of(row) for row in challenge.seat_rows]
    if not challenge.placed:
        random.SystemRandom().shuffle(actors)
    game = play.create_game(game_type=challenge.game_type, seats=actors,
                            options=challenge.options, rules=challenge.rules,
                            time_control=challenge.time_control, rated=challenge.rated)
    challenge.status = Challenge.Status.ACCEPTED
    challenge.game = game
    challenge.save(update_fields=["status", "game"])
    send_on_commit(LOBBY_GROUP, {"type": "seek_removed", "id": challenge.id})
    signals.table_started.send(__name__, challenge=challenge, game=game,
                               starter=starter.user_id)
    told = {a.user_id for a in actors if a.kind == "member"} - {starter.user_id}
    for user_id in sorted(u for u in told if u is not None):
        send_on_commit(user_group(user_id),
                       {"type": "seek_accepted", "id": challenge.id, "game": game.id,
                        "url": reverse("games:game", kwargs={"game_id": game.id})})
    return game


def _cancel(challenge: Challenge) -> None:
    challenge.status = Challenge.Status.CANCELLED
    challenge.save(update_fields=["status"])
    send_on_commit(LOBBY_GROUP, {"type": "seek_removed", "id": challenge.id})
    for row in challenge.seat_rows:
        if row.user_id is not None and row.user_id != challenge.creator_id \
                and not challenge.public:
            send_on_commit(user_group(row.user_id), {"type": "seek_removed",
                                                     "id": challenge.id})
    if challenge.invited_id is not None:
        send_on_commit(user_group(challenge.invited_id),
                       {"type": "challengeCanceled", "challenge": challenge_info(challenge)})


def cancel_challenge(user: Any, challenge_id: str) -> None:
    """The host withdraws an open table (the members seated and the member it was for are
    told); `gone` if it was taken or withdrawn already, `not_a_player` for anyone else."""
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.creator_id != user.pk:
            raise GameError(Code.NOT_A_PLAYER, "only the challenge's maker may cancel it")
        _cancel(challenge)


def decline_challenge(user: Any, challenge_id: str, reason: str = "generic") -> Challenge:
    """The member a challenge is to says no (`reason`: one of `DECLINE_REASONS`); its
    maker is told (`challengeDeclined`). A table anyone may take is left, not declined."""
    if reason not in DECLINE_REASONS:
        raise GameError(Code.BAD_REQUEST, f"reason must be one of "
                        f"{', '.join(DECLINE_REASONS)}, not {reason!r}")
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.invited_id != user.pk:
            raise GameError(Code.NOT_A_PLAYER, "only the member a challenge is to may "
                            "decline it" if challenge.invited_id is not None else
                            "this table is not a challenge to you: nothing to decline")
        challenge.status = Challenge.Status.DECLINED
        challenge.decline_reason = reason
        challenge.save(update_fields=["status", "decline_reason"])
        send_on_commit(user_group(challenge.creator_id),
                       {"type": "challengeDeclined", "challenge": challenge_info(challenge)})
    return challenge


def quick_pair(user: Any, *, options: dict[str, Any], time_control: str = "10+5",
               game_type: str | None = None) -> tuple[Game | None, Challenge | None]:
    """Play now: (the game, None) if an open seek with these options and this time control
    was taken, else (None, the seek made for them). A seek taken by someone else meanwhile
    is skipped. Only two-seat seeks pair this way (a bigger table is joined from the
    lobby)."""
    kind = get_kind(game_type) if game_type else default_kind()
    game_type = kind.key
    options, time_control = _checked(kind, options, time_control)
    seat_count = kind.default_seat_count
    candidates = (Challenge.objects.filter(
        public=True, status=Challenge.Status.OPEN, game_type=game_type,
        rules=kind.rules_version, options=options, time_control=time_control,
        seat_count=2, rated=bool(time_control))
        .exclude(creator=user).order_by("created_at").values_list("id", flat=True)[:20])
    for challenge_id in candidates if seat_count == 2 else []:
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

