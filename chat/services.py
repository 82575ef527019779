"""The chat's services: posting, catching up, muting, reporting, and the admin's hiding
and silencing. Each owns its transaction; frames go out after commit, to the groups whose
viewers may read the room (chat.rooms.groups_for), as channel-layer messages of their own
type (`chat.frame`, with the author's id so a muter's sockets drop them), never inside a
game frame.

Refusals raise `ChatError` (its code and words) and change nothing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from common.text import visible
from games import access
from games.actors import Actor
from games.frames.broadcast import encode, send_message
from games.models import Game

from . import frames
from .models import MAX_LENGTH, Message, Mute, Report, Room, Silence
from .rooms import ROOMS, RoomName, groups_for, member_group, readable, writable

RATE_COUNT = 5  # messages a member may send ...
RATE_SECONDS = 10  # ... in this many seconds, across every game
HISTORY = 100  # messages of a room a page gets at most when it catches up


class ChatError(Exception):
    """A chat frame refused: `code` for the page, `message` in words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def frame(self) -> frames.Frame:
        return frames.error_frame(self.code, self.message)


@dataclass(frozen=True)
class Reader:
    """A viewer of a game's chat: who they are and whether they play in it."""

    actor: Actor | None
    player: bool

    @property
    def member_id(self) -> int | None:
        return self.actor.user_id if self.actor and self.actor.kind == "member" else None


def clean(text: str) -> str:
    """One line of plain text as people see it: control characters removed, whitespace
    runs (newlines too) made one space, and the normalisation usernames get too
    (`common.text.visible`: NFKC, no zero-width or direction characters, no stacks of
    combining marks; accented letters kept, composed)."""
    kept = "".join(c for c in text if unicodedata.category(c) != "Cc" or c.isspace())
    return " ".join(visible(kept).split())


def _game(game_id: str) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ChatError("not_found", "No such game.")
    return game


def _check_visible(game: Game, actor: Actor | None) -> None:
    if access.hidden_reason(game, actor):
        raise ChatError("hidden", "This game's chat is not open to you now.")


def silenced_until(user_id: int, now: datetime) -> datetime | None:
    """The end of the member's longest running silence, or None."""
    silence = Silence.objects.filter(member_id=user_id, until__gt=now).order_by("-until").first()
    return silence.until if silence else None


def _send_on_commit(groups: list[str], frame: frames.Frame, author: int | None) -> None:
    text = encode(frame)

    def send() -> None:
        for group in groups:
            send_message(group, {"type": "chat.frame", "text": text, "author": author})

    transaction.on_commit(send)


def post(game_id: str, reader: Reader, text: Any) -> Message:
    """Say `text` in the reader's room of the game: a member's, within the length limit,
    not silenced and under the rate limit. Sent to the room's readers after commit."""
    room_name = writable(reader.actor, reader.player)
    if room_name is None or reader.member_id is None:
        raise ChatError("sign_in", "Sign in to chat: guests and visitors can read only.")
    if not isinstance(text, str):
        raise ChatError("bad_frame", 'a message is {"type": "chat", "text": str}')
    said = clean(text)
    if not said:
        raise ChatError("empty", "Write something first.")
    if len(said) > MAX_LENGTH:
        raise ChatError("too_long", f"Messages are at most {MAX_LENGTH} characters "
                                    f"(this one has {len(said)}).")
    user_id = reader.member_id
    with transaction.atomic():
        # One member's messages one at a time, so the rate limit holds across sockets.
        author = get_user_model().objects.select_for_update().get(pk=user_id)
        now = timezone.now()
        until = silenced_until(user_id, now)
        if until is not None:
            raise ChatError("silenced", "A moderator silenced you until "
                                        f"{until:%Y-%m-%d %H:%M} UTC.")
        recent = Message.objects.filter(author_id=user_id,
                                        created__gt=now - timedelta(seconds=RATE_SECONDS))
        if recent.count() >= RATE_COUNT:
            raise ChatError("rate_limited", f"At most {RATE_COUNT} messages in "
                                            f"{RATE_SECONDS} seconds: wait a moment.")
        game = _game(game_id)
        _check_visible(game, reader.actor)
        room, _ = Room.objects.get_or_create(game=game, kind=room_name)
        Room.objects.filter(pk=room.pk).update(last_seq=F("last_seq") + 1)
        seq = Room.objects.values_list("last_seq", flat=True).get(pk=room.pk)
        message = Message.objects.create(room=room, seq=seq, author=author, text=said,
                                         created=now)
        line = frames.said(seq, author.get_username(), said, now)
        _send_on_commit(groups_for(game.id, room_name, game.is_over),
                        frames.message_frame(room_name, line), user_id)
    return message


def muted_ids(user_id: int | None) -> frozenset[int]:
    """The members `user_id` muted."""
    if user_id is None:
        return frozenset()
    return frozenset(Mute.objects.filter(muter_id=user_id).values_list("muted_id", flat=True))


def _muted_names(user_id: int | None) -> list[str]:
    if user_id is None:
        return []
    field = f"muted__{get_user_model().USERNAME_FIELD}"
    return sorted(Mute.objects.filter(muter_id=user_id).values_list(field, flat=True))


def chat_state(game_id: str, reader: Reader, after: dict[str, int]) -> frames.Frame:
    """The `chat_state` for a page that has each room up to `after[room]`: every room the
    reader may read now, with its messages after that number (at most the last HISTORY),
    hidden and muted ones left out, and the hidden numbers up to there."""
    game = _game(game_id)
    _check_visible(game, reader.actor)
    muted = muted_ids(reader.member_id)
    rooms = {room.kind: room for room in Room.objects.filter(game=game)}
    parts = []
    for name in readable(reader.player, game.is_over):
        room = rooms.get(name)
        if room is None:
            parts.append(frames.room_part(name, 0, [], []))
            continue
        since = max(after.get(name, 0), room.last_seq - HISTORY)
        rows = list(Message.objects.filter(room=room, seq__gt=since)
                    .exclude(author_id__in=muted).order_by("seq")
                    .values_list("seq", "author__username", "text", "created", "hidden"))
        lines = [frames.said(seq, author, text, created)
                 for seq, author, text, created, hidden in rows if not hidden]
        hidden = Message.objects.filter(room=room, hidden=True,
                                        seq__lte=min(after.get(name, 0), room.last_seq)) \
            .values_list("seq", flat=True)
        parts.append(frames.room_part(name, room.last_seq, lines, hidden, room.moderated))
    write = writable(reader.actor, reader.player)
    reason = "" if write else "Sign in to chat: guests and visitors can read only."
    if write and reader.member_id is not None:
        until = silenced_until(reader.member_id, timezone.now())
        if until is not None:
            write, reason = None, f"A moderator silenced you until {until:%Y-%m-%d %H:%M} UTC."
    you = reader.actor.name if reader.member_id is not None and reader.actor else None
    return frames.state_frame(parts, you, write, MAX_LENGTH, _muted_names(reader.member_id),
                              reason)


def mute(reader: Reader, name: Any, on: bool) -> frames.Frame:
    """Mute (or unmute) the member called `name`: their messages no longer reach the
    muter's pages, in any game. Every game socket of the muter hears it at once."""
    if reader.member_id is None:
        raise ChatError("sign_in", "Sign in to mute someone.")
    if not isinstance(name, str) or not name:
        raise ChatError("bad_frame", 'a mute is {"type": "chat_mute", "name": str, '
                                     '"mute": bool}')
    User = get_user_model()
    target = User.objects.filter(**{User.USERNAME_FIELD: name}).first()
    if target is None:
        raise ChatError("not_found", f"No member is called {name[:40]!r}.")
    if target.pk == reader.member_id:
        raise ChatError("bad_request", "You cannot mute yourself.")
    with transaction.atomic():
        if on:
            Mute.objects.get_or_create(muter_id=reader.member_id, muted=target)
        else:
            Mute.objects.filter(muter_id=reader.member_id, muted=target).delete()
        ids = sorted(muted_ids(reader.member_id))
        group = member_group(reader.member_id)
        transaction.on_commit(lambda: send_message(group, {"type": "chat.mutes", "ids": ids}))
    return frames.muted_frame(target.get_username(), on, _muted_names(reader.member_id))


def report(game_id: str, reader: Reader, room_name: Any, seq: Any) -> frames.Frame:
    """Report message `seq` of a room the member reads (not their own): stored once per
    member and message, for the admin."""
    if reader.member_id is None:
        raise ChatError("sign_in", "Sign in to report a message.")
    if room_name not in ROOMS or not isinstance(seq, int) or isinstance(seq, bool):
        raise ChatError("bad_frame", 'a report is {"type": "chat_report", "room": '
                                     '"players" | "spectators", "seq": int}')
    game = _game(game_id)
    _check_visible(game, reader.actor)
    if room_name not in readable(reader.player, game.is_over):
        raise ChatError("not_found", "No such message.")
    message = Message.objects.filter(room__game=game, room__kind=room_name, seq=seq).first()
    if message is None:
        raise ChatError("not_found", "No such message.")
    if message.author_id == reader.member_id:
        raise ChatError("bad_request", "You cannot report your own message.")
    Report.objects.get_or_create(message=message, reporter_id=reader.member_id)
    return frames.reported_frame(room_name, seq)


def hide(messages: Iterable[Message]) -> int:
    """The admin hides messages: gone from every page at once (a `chat_hidden` frame to
    the room's readers) and from every catch-up. Returns how many were newly hidden."""
    return _moderate(messages, hidden=True)


def show(messages: Iterable[Message]) -> int:
    """The admin shows hidden messages again: back on every page at once, in their place
    (a `chat_shown` frame with the message), and in every catch-up. Returns how many were
    hidden and are shown now."""
    return _moderate(messages, hidden=False)


def _moderate(messages: Iterable[Message], hidden: bool) -> int:
    """Hide or show each message that is not so already; each change raises its room's
    moderation number (the UPDATE holds the room's row to the commit, so a room's
    changes are numbered in the order they commit) and its frame goes to the room's
    readers after commit."""
    count = 0
    with transaction.atomic():
        for message in messages:
            if not Message.objects.filter(pk=message.pk, hidden=not hidden).update(
                    hidden=hidden, hidden_at=timezone.now() if hidden else None):
                continue  # already so
            count += 1
            room = message.room
            Room.objects.filter(pk=room.pk).update(moderated=F("moderated") + 1)
            version = Room.objects.values_list("moderated", flat=True).get(pk=room.pk)
            name: RoomName = room.kind  # type: ignore[assignment]
            if hidden:
                frame = frames.hidden_frame(name, message.seq, version)
            else:
                frame = frames.shown_frame(name, version, frames.said(
                    message.seq, message.author.get_username(), message.text,
                    message.created))
            game = Game.objects.get(pk=room.game_id)
            # a muter's page leaves a shown message of someone they muted out itself (the
            # frame is not dropped, so the page's moderation numbers have no gap)
            _send_on_commit(groups_for(game.id, name, game.is_over), frame, None)
    return count


def silence(user_ids: Iterable[int], hours: int, reason: str = "") -> int:
    """The admin silences members for `hours` from now: they write in no room until
    then. Returns how many were silenced."""
    until = timezone.now() + timedelta(hours=hours)
    rows = [Silence(member_id=uid, until=until, reason=reason) for uid in set(user_ids)]
    Silence.objects.bulk_create(rows)
    return len(rows)
