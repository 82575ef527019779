"""Making notifications: one call per point of the platform where something happens to a
member, inside the transaction that made it happen, heard on live play's signals
(`games.signals`; the games app never calls this module by name); the rows shown in the site
go live to the member's open sockets (lobby and game pages alike:
`games.frames.broadcast.socket_group`) once it commits.

- `your_turn(game, lg, decided)`: after a decision (or a game's start) of a
  correspondence game, each member now to act has one unread "your turn" for the game
  (never one per move); the member who just decided has theirs marked read.
- `table_joined(challenge, name)`: someone sat down at a member's table that still waits.
- `table_started(challenge, game, starter)`: a member's challenge was accepted (a table
  filled): to the seated members but the one whose join started it.
- `rematch_offered(game, seat)`: to the other members of a finished game.
- `challenge_sent(challenge)`: a challenge to one member was made (through the API: a BOT
  account or a program challenging them, issue #47): they are told, with its page, where
  they accept or decline it.
- `game_ended` (a finish-seam handler, after commit): a correspondence game ended.
- `round_started(tournament, rnd, games)`: a tournament round's start committed
  (`tournaments.signals.round_started`): each paired member is told to play, with their
  game's link; a member with a bye is told so, with no link.
- `arena_paired(tournament, game, users)`: an arena's pass made a game
  (`tournaments.signals.arena_paired`, after commit): its two players are told to play,
  with the game's link (the same kind of row as a round's start).

A row the member wants pushed goes to their subscribed browsers by a Celery task sent
after commit (`notifications.push`): these points only, so never a push per move of a
live game. Never for bots or guests. The texts say only what every player and spectator may know.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from django.db import IntegrityError, transaction
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone

from games import signals, titles
from games.frames.broadcast import send_on_commit, socket_group
from games.kinds import LiveGame
from games.models import Challenge, Game
from games.results import Ending, Stage, on_game_end
from games.timing import clocks
from games.timing.correspondence import is_correspondence
from games.turns.store import live
from tournaments import signals as tournament_signals

from . import choices, push
from .inbox import unread_count
from .models import Kind, Notification


def correspondence(game: Game) -> bool:
    """Is the game played at one's own pace (days per turn)? Only those notify of turns
    and endings: in a live game the player is at the board."""
    return is_correspondence(game.time_control)


def game_url(game: Game) -> str:
    return reverse("games:game", kwargs={"game_id": game.id})


def with_whom(game: Game, user_id: int) -> str:
    """ "Cargo Express with alice, bob": the game's name and the other seats' holders."""
    kind = game.kind
    others = [s.holder_name(kind) or kind.seat_label(s.index)
              for s in game.seat_list if s.user_id != user_id]
    return f"{kind.name} with {', '.join(others)}" if others else kind.name


def _members(game: Game, seats: Iterable[int]) -> set[int]:
    holders = [game.seat_list[s] for s in seats]
    return {h.user_id for h in holders if h.user_id is not None and not h.bot_level}


def your_turn(game: Game, lg: LiveGame | None = None, decided: int | None = None) -> None:
    """After `decided`'s decision (None: the game's start) in a correspondence game: the
    members to act get a "your turn" unless one is unread; the decider's is read. `lg` is
    the kind's game after the change (read from the row if not given)."""
    if not correspondence(game):
        return
    lg = lg or live(game)
    if lg.over:
        return
    acting = _members(game, lg.acting())
    if decided is not None:
        done = _members(game, [decided]) - acting
        if done:
            Notification.objects.filter(user_id__in=done, game=game, kind=Kind.YOUR_TURN,
                                        read_at__isnull=True).update(read_at=timezone.now())
    if not acting:
        return
    told = set(Notification.objects.filter(
        user_id__in=acting, game=game, kind=Kind.YOUR_TURN, read_at__isnull=True)
        .values_list("user_id", flat=True))
    _create(Kind.YOUR_TURN, sorted(acting - told), game,
            lambda uid: f"Your turn in {with_whom(game, uid)}", game_url(game))


def table_joined(challenge: Challenge, name: str) -> None:
    """`name` sat down at the host's table, which still has free seats."""
    url = reverse("games:challenge", kwargs={"challenge_id": challenge.id})
    _create(Kind.TABLE_INVITE, [challenge.creator_id], None,
            lambda uid: f"{name} joined your {challenge.kind.name} table", url)


def table_started(challenge: Challenge, game: Game, starter: int | None) -> None:
    """The table filled and its game began: the members seated, but `starter` (whose
    join or start made it), are told their challenge was accepted."""
    members = _members(game, range(len(game.seat_list))) - {starter}
    _create(Kind.CHALLENGE, sorted(u for u in members if u is not None), game,
            lambda uid: (f"Your challenge was accepted: {with_whom(game, uid)} has begun"
                         if uid == challenge.creator_id else
                         f"Your table is full: {with_whom(game, uid)} has begun"),
            game_url(game))


def rematch_offered(game: Game, seat: int) -> None:
    """The holder of `seat` offered a rematch: the game's other members are told."""
    offerer = game.seat_list[seat].holder_name(game.kind) or "Your opponent"
    others = _members(game, game.human_seats) - _members(game, [seat])
    _create(Kind.REMATCH_OFFERED, sorted(others), game,
            lambda uid: f"{offerer} offers a rematch of your {game.kind.name} game",
            game_url(game))


def challenge_sent(challenge: Challenge) -> None:
    """A challenge to `challenge.invited` was made: they are told who challenges them to
    what (a BOT account's name with its title), with the challenge's page."""
    if challenge.invited_id is None:
        return
    creator = challenge.creator
    who = titles.titled(creator.get_username(), titles.title_of(creator.pk))
    what = describe_table(challenge)
    url = reverse("games:challenge", kwargs={"challenge_id": challenge.id})
    _create(Kind.CHALLENGED, [challenge.invited_id], None,
            lambda uid: f"{who} challenges you to {what}", url)


def describe_table(challenge: Challenge) -> str:
    """"Cargo Connect (10+5, rated)", in the words the lobby uses for its clock."""
    control = clocks.label(challenge.time_control)
    return f"{challenge.kind.name} ({control}, {'rated' if challenge.rated else 'casual'})"


class Named(Protocol):
    id: str
    name: str


class Numbered(Protocol):
    number: int


def round_started(tournament: Named, rnd: Numbered, games: dict[int, Game | None]) -> None:
    """Round `rnd` of `tournament` started (after its commit): each paired member is told
    to play now, linked to their game; one with a bye is told of it, linked to the
    tournament's page.
    Only what the signal carries is read: this app imports `tournaments.signals` alone."""
    name, number = tournament.name, rnd.number
    with transaction.atomic():
        for game in {g.id: g for g in games.values() if g is not None}.values():
            players = sorted(u for u, g in games.items() if g is not None and g.id == game.id)
            _create(Kind.TOURNAMENT_ROUND, players, game,
                    lambda uid: f"Round {number} of {name} has started: play now",
                    game_url(game))
        _create(Kind.TOURNAMENT_ROUND, sorted(u for u, g in games.items() if g is None),
                None, lambda uid: f"Round {number} of {name}: you have a bye this round",
                reverse("tournaments:detail", args=[tournament.id]))


def arena_paired(tournament: Named, game: Game, users: list[int]) -> None:
    """An arena paired `users` in `game` (after its commit): each is told to play now.
    Only what the signal carries is read."""
    name = tournament.name
    with transaction.atomic():
        _create(Kind.TOURNAMENT_ROUND, sorted(users), game,
                lambda uid: f"Your game in {name} has started: play now", game_url(game))


# What live play says happened (games.signals): heard, not called by name.

@receiver(signals.turn_passed, dispatch_uid="notifications.your_turn")
def _turn_passed(sender: object, *, game: Game, live: LiveGame | None, decided: int | None,
                 **kwargs: object) -> None:
    your_turn(game, live, decided)  # correspondence games only


@receiver(signals.table_joined, dispatch_uid="notifications.table_joined")
def _table_joined(sender: object, *, challenge: Challenge, name: str, **kwargs: object
                  ) -> None:
    table_joined(challenge, name)


@receiver(signals.table_started, dispatch_uid="notifications.table_started")
def _table_started(sender: object, *, challenge: Challenge, game: Game, starter: int | None,
                   **kwargs: object) -> None:
    table_started(challenge, game, starter)


@receiver(signals.challenge_sent, dispatch_uid="notifications.challenge_sent")
def _challenge_sent(sender: object, *, challenge: Challenge, **kwargs: object) -> None:
    challenge_sent(challenge)


@receiver(signals.rematch_offered, dispatch_uid="notifications.rematch_offered")
def _rematch_offered(sender: object, *, game: Game, seat: int, **kwargs: object) -> None:
    rematch_offered(game, seat)


# What the tournaments say happened (tournaments.signals), after their commit.

@receiver(tournament_signals.round_started, dispatch_uid="notifications.round_started")
def _round_started(sender: object, *, tournament: Named, round: Numbered,
                   games: dict[int, Game | None], **kwargs: object) -> None:
    round_started(tournament, round, games)


@receiver(tournament_signals.arena_paired, dispatch_uid="notifications.arena_paired")
def _arena_paired(sender: object, *, tournament: Named, game: Game, users: list[int],
                  **kwargs: object) -> None:
    arena_paired(tournament, game, users)


@on_game_end("notifications.game_ended", Stage.AFTER_COMMIT, order=90)
def game_ended(ending: Ending) -> None:
    """A correspondence game ended (or was voided): its members are told, and their unread
    "your turn" for it is read."""
    game = ending.game
    if not correspondence(game):
        return
    members = _members(game, range(len(game.seat_list)))
    with transaction.atomic():
        Notification.objects.filter(game=game, kind=Kind.YOUR_TURN,
                                    read_at__isnull=True).update(read_at=timezone.now())
        _create(Kind.GAME_ENDED, sorted(members), game,
                lambda uid: _ending_text(game, uid, ending.voided), game_url(game))


def _ending_text(game: Game, user_id: int, voided: bool) -> str:
    if voided:
        return f"{with_whom(game, user_id)} was voided"
    mine = next(s for s in game.seat_list if s.user_id == user_id)
    shared = sum(s.place == mine.place for s in game.seat_list) > 1
    if mine.place is None:
        return f"{with_whom(game, user_id)} is over"
    if len(game.seat_list) == 2:
        outcome = "drew" if shared else ("won" if mine.place == 1 else "lost")
    elif mine.place == 1:
        outcome = "shared first place" if shared else "won"
    else:
        outcome = f"placed {_ordinal(mine.place)}"
    return f"{with_whom(game, user_id)} is over: you {outcome}"


def _ordinal(n: int | None) -> str:
    return {2: "2nd", 3: "3rd"}.get(n or 0, f"{n}th")


def _create(kind: Kind, user_ids: list[int], game: Game | None,
            text: Callable[[int], str], url: str) -> list[Notification]:
    """Rows for the members who want `kind`; those shown in the site go live on commit."""
    if not user_ids:
        return []
    wanted = choices.of_members(user_ids)
    try:
        with transaction.atomic():  # a savepoint: a lost race never fails the caller
            rows = Notification.objects.bulk_create([
                Notification(user_id=uid, kind=kind, game=game, text=text(uid)[:200],
                             url=url, in_site=kind in wanted[uid].in_site)
                for uid in user_ids if wanted[uid].wants(kind)])
    except IntegrityError:  # another process made the same unread "your turn" just now
        return []
    for row in rows:
        if row.in_site:
            send_on_commit(socket_group(row.user_id), frame(row, unread_count(row.user_id)))
    push.send_on_commit([row for row in rows if wanted[row.user_id].pushes(kind)])
    return rows


def frame(row: Notification, unread: int) -> dict[str, object]:
    """The `notification` frame (docs/live-protocol.md): the row and the member's unread
    count once it is made; `id` rises, so a page can tell what it has seen."""
    return {"type": "notification", "id": row.pk, "kind": row.kind, "text": row.text,
            "url": row.url, "unread": unread}
