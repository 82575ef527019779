"""Each kind says how long its decision tokens may be; none may be longer than the stored
token (`Turn.token`), and a socket refuses a longer one unread."""

import pytest

from games import kinds
from games.models import Turn


def test_no_kind_writes_a_token_longer_than_the_stored_one(pile_kind):
    assert Turn._meta.get_field("token").max_length == kinds.MAX_TOKEN_LENGTH
    assert all(kind.max_token_length <= kinds.MAX_TOKEN_LENGTH for kind in kinds.all_kinds())
    assert kinds.longest_token() == max(k.max_token_length for k in kinds.all_kinds())


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_refuses_a_token_longer_than_its_kind_writes(game, connect):
    sock = await connect(game.id, "alice")
    await sock.send_json_to({"type": "turn", "ply": 0,
                             "token": "a" * (game.kind.max_token_length + 1)})
    assert (await sock.receive_json_from(timeout=5))["code"] == "bad_frame"
    await sock.disconnect()
