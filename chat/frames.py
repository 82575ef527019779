"""The chat's frames, pure shaping (no database, no sending): what a page receives.

Every chat frame's type starts with `chat`; none carries anything of the game's state,
and no game frame carries anything of the chat (docs/live-protocol.md, "Table chat").
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from .rooms import RoomName

Frame = dict[str, Any]


def said(seq: int, author: str, text: str, created: datetime) -> Frame:
    """One message as pages see it: the text is plain text, never markup."""
    return {"seq": seq, "author": author, "text": text, "at": created.isoformat()}


def message_frame(room: RoomName, line: Frame) -> Frame:
    """`chat`: a new message in `room`, numbered `seq` in it."""
    return {"type": "chat", "room": room, **line}


def hidden_frame(room: RoomName, seq: int, version: int) -> Frame:
    """`chat_hidden`: an admin hid message `seq` of `room`; pages take it away. `version`
    is the room's moderation number after the change (`Room.moderated`)."""
    return {"type": "chat_hidden", "room": room, "seq": seq, "version": version}


def shown_frame(room: RoomName, version: int, line: Frame) -> Frame:
    """`chat_shown`: an admin showed a hidden message of `room` again; pages put it back
    in its place by its `seq`. `version` as `hidden_frame`'s."""
    return {"type": "chat_shown", "room": room, "version": version, **line}


def room_part(room: RoomName, last_seq: int, lines: list[Frame],
              hidden: Iterable[int], version: int = 0) -> Frame:
    """One room in a `chat_state`: its messages after the page's number, the room's last
    number, which numbers up to there are hidden, and its moderation number: a page that
    knew a lower one missed a message shown again, and reloads the room."""
    return {"room": room, "seq": last_seq, "messages": lines, "hidden": sorted(hidden),
            "version": version}


def state_frame(rooms: list[Frame], you: str | None, write: RoomName | None, limit: int,
                muted: list[str], reason: str) -> Frame:
    """`chat_state`: the answer to `chat_sync`: each room the viewer reads, the viewer's
    name (null: not a member), the room they write in (null: they read only, `reason`
    says why), the length limit and whom they muted."""
    return {"type": "chat_state", "rooms": rooms, "you": you, "write": write,
            "limit": limit, "muted": muted, "reason": reason}


def muted_frame(name: str, muted: bool, names: list[str]) -> Frame:
    """`chat_muted`: the answer to `chat_mute`, with every name now muted."""
    return {"type": "chat_muted", "name": name, "muted": muted, "names": names}


def reported_frame(room: RoomName, seq: int) -> Frame:
    """`chat_reported`: the answer to `chat_report` (also to a second report of the same
    message, which stores nothing more)."""
    return {"type": "chat_reported", "room": room, "seq": seq}


def error_frame(code: str, message: str) -> Frame:
    """`chat_error`: a chat frame refused; nothing changed. Its own type, so a game page's
    pending turn is not cleared by a chat refusal."""
    return {"type": "chat_error", "code": code, "message": message}
