"""Groups and sending: every frame goes to a channel-layer group, after commit.

The game's group (`game.<id>`) gets turn, resign, rematch, void frames; a member's group
(`user.<id>`) gets lobby news meant for them; `lobby` gets seeks as they come and go.
"""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

LOBBY_GROUP = "lobby"


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
