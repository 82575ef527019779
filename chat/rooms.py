"""Who reads and who writes which room of a game, and which sockets hear each room.

- A game has two rooms: the players' (its seats' holders talk beside the board) and the
  spectators' (everyone else who watches).
- Players read the players' room; they read the spectators' room only once the game is
  over (lichess keeps them apart so that no watcher can help a player).
- Spectators (members, guests and signed-out visitors without a seat) read both rooms
  (the players' chat is public to watchers, as on lichess).
- Members write in their own role's room, during the game and after it; guests,
  signed-out visitors and bots never write.
- A player is anyone who holds or held a seat of the game (a leaver whose seat a bot plays
  on stays a player: they may not read the spectators' room before the end either).

Every socket of a game joins one chat group: `chat.<game>.players` if its viewer is a
player, `chat.<game>.watch` otherwise. A message goes only to the groups whose viewers may
read its room at the time it is sent (`groups_for`); a player's socket is never in a group
that gets a spectators' message while the game goes on.
"""

from __future__ import annotations

from typing import Literal

from games.actors import Actor
from games.models import Game

RoomName = Literal["players", "spectators"]
PLAYERS: RoomName = "players"
SPECTATORS: RoomName = "spectators"
ROOMS: tuple[RoomName, ...] = (PLAYERS, SPECTATORS)


def is_player(game: Game, actor: Actor | None) -> bool:
    """Does `actor` hold (or did they hold) a seat of `game`? Bots are never asked."""
    if actor is None or actor.kind == "bot":
        return False
    for seat in game.seat_list:
        if actor.kind == "member" and seat.user_id is not None \
                and seat.user_id == actor.user_id:
            return True
        if actor.kind == "guest" and seat.guest_key is not None \
                and seat.guest_key == actor.guest_key:
            return True
    return False


def readable(player: bool, over: bool) -> tuple[RoomName, ...]:
    """The rooms a viewer reads: players the players' room until the game is over."""
    return ROOMS if over or not player else (PLAYERS,)


def writable(actor: Actor | None, player: bool) -> RoomName | None:
    """The room a viewer writes in (their role's), or None: only members write."""
    if actor is None or actor.kind != "member":
        return None
    return PLAYERS if player else SPECTATORS


def players_group(game_id: str) -> str:
    """The chat group of a game's players' sockets."""
    return f"chat.{game_id}.players"


def watch_group(game_id: str) -> str:
    """The chat group of a game's spectators' sockets."""
    return f"chat.{game_id}.watch"


def member_group(user_id: int) -> str:
    """Every game socket of one member (their mutes change there at once)."""
    return f"chat.member.{user_id}"


def group_of(game_id: str, player: bool) -> str:
    """The one chat group a socket of a player (or of a spectator) joins."""
    return players_group(game_id) if player else watch_group(game_id)


def groups_for(game_id: str, room: RoomName, over: bool) -> list[str]:
    """The groups a message of `room` (or its hiding) goes to: its readers' only."""
    if room == PLAYERS or over:
        return [players_group(game_id), watch_group(game_id)]
    return [watch_group(game_id)]
