"""The game socket, `/ws/game/<id>/`: a player's or a spectator's live game.

Thin: validate the frame, call a service (games.services) off the event loop, send what it
returns; frames the services broadcast to the socket's audience (games/frames/audiences.py) arrive
as `frame.send` group messages. The frames both ways are docs/live-protocol.md's.

- On connect the socket finds its viewer's seat (or none), joins the one audience that
  viewer may hear, counts a player's presence (games.timing.abandonment) or a spectator
  (games.frames.presence), and sends the viewer's state.
- The fast path's pieces here (games.fast, `LIVE_FAST_PATH`): the common turn from the
  event loop (`apply_turn_on_loop`), a player's game kept warm, and warm copies that follow
  the group (`follow`).
- Frames that carry what changed (games.frames.diffs): the socket keeps the state its
  client holds (the whole state it sent last, or the last group frame's) and sends each
  group frame with its state as a diff of that one.
- A turn whose broadcast failed is acknowledged to its sender directly; on a `ping` (and
  when the layer answers again) the socket pushes any turns and any change of the row the
  client has not had (catch-up).
- Each turn (inside its write, `SessionGuard`) or resign checks the session again.
- The audience follows the seat (issue #42): when the seat changes hands during play (a
  bot plays it on after its holder left: games.frames.audiences, `seat.changed`), the socket
  leaves the seat's group, joins the one its viewer has now and sends that viewer's state;
  a frame built for the group it left that was already on its way is dropped. A socket
  that joined its seat's group just as the seat changed hands looks again once joined, and
  one that missed the change (the layer was down) before its next catch-up.

Presence (games/frames/presence.py): a game socket of a viewer without a seat counts as one
spectator while it is open; a socket that sends `{"type": "spectators"}` gets the count
then and a `spectators` frame at each change (group `spectators.<game>`).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

from games import access, services
from games.actors import Actor, SessionGuard, plays_through_api
from games.fast import loopdb, warm
from games.fast.turns import apply_turn_on_loop, follow
from games.frames import audiences, broadcast, metrics, presence
from games.frames.diffs import Told
from games.frames.protocol import DATABASE_DOWN, MAX_TOKEN_LENGTH, Code, GameError, SignedOut
from games.sockets import limits
from games.sockets.runtime import (
    CLOSE_HIDDEN,
    CLOSE_NOT_FOUND,
    CLOSE_SIGNED_OUT,
    CLOSE_TOO_MANY,
    CLOSE_TRY_AGAIN,
    SocketParts,
    db,
    log_database_down,
    off_loop,
    ply_of,
    quietly,
    service,
    state_ply,
)
from games.turns.preturns import MAX_KEY as MAX_QUEUE_KEY
from games.turns.preturns import MAX_STEPS as MAX_QUEUE_STEPS

MAX_TOLD = 2048  # turn plies a socket remembers having passed (a game of four has ~250)


class GameConsumer(SocketParts):
    """The game alone; the routed socket adds the apps' parts (cargosite/routing.py)."""

    game_id = ""
    group = ""
    actor: Actor | None = None
    seat: int | None = None
    client_ply = 0  # the ply the client has been sent frames up to
    client_rev = 0  # the game row's revision the client has been sent frames up to
    max_token = MAX_TOKEN_LENGTH  # the game kind's longest token
    counted: tuple[str, str] | None = None  # (address, game) of an anonymous spectator
    present = False  # this socket is counted on its seat (games.timing.abandonment)
    mode = ""
    hides = False  # the game's kind hides information: an audience per seat
    guard: SessionGuard | None = None  # the session each turn's write checks
    watching = ""  # this socket's id among the game's spectators, while it counts as one
    # Decisions: each one the budget refuses gets `throttled` (its page waits on it).
    answered = frozenset({"turn", "queue", "resign", "abort", "claim"})
    left: frozenset[str] = frozenset()  # game groups this socket left (its seat changed hands)
    told: set[int] = set()  # plies of the turn frames this socket passed (group or direct)
    # The state its client holds: group frames go out as a diff of it (games.frames.diffs)
    holding: Told = Told()

    async def connect(self) -> None:
        self.told = set()
        self.holding = Told()
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.actor = Actor.of_user(self.scope.get("user"))
        try:
            state = await service(self.load_state)()
        except GameError as refused:
            await self.refuse(CLOSE_HIDDEN if refused.error == Code.HIDDEN
                              else CLOSE_NOT_FOUND)
            return
        except DATABASE_DOWN as error:
            log_database_down(error)
            await self.refuse(CLOSE_TRY_AGAIN)
            return
        if self.seat is None and (self.actor is None or self.actor.kind != "member"):
            if not self.count_anonymous():
                await self.refuse(CLOSE_TOO_MANY)
                return
        self.guard = SessionGuard(self.scope)
        await self.join(self.group)
        try:
            if self.seat is not None and self.hides and not await db(self.holds_seat)():
                # The seat changed hands between loading and joining: its `seat.changed`
                # may have gone before this socket was in the group.
                state = await self.move_audience()
        except DATABASE_DOWN as error:
            log_database_down(error)
            await self.refuse(CLOSE_TRY_AGAIN)
            return
        await self.parts_join()
        await self.join_member_group()
        await self.accept()
        self.client_ply = state_ply(state)
        await self.send_state(state)
        await self.count_spectators()

    async def send_state(self, state: dict[str, Any]) -> None:
        """The viewer's whole state: what the next frames' diffs start from."""
        self.holding.whole(state)
        await self.send_json({"type": "state", "state": state})

    async def send_whole(self, frame: dict[str, Any]) -> None:
        """A frame sent to this socket alone, with its whole state (or none)."""
        state = frame.get("state")
        self.holding.whole(state if isinstance(state, dict) else None)
        await self.send_json(frame)

    async def count_spectators(self) -> None:
        """A spectator's socket counts itself and tells the sockets that asked for the
        count (`spectators` frames go only to those: older clients never see one)."""
        if self.seat is not None:
            return
        self.watching = uuid.uuid4().hex
        count = await quietly(off_loop(presence.watch)(self.game_id, self.watching))
        if count is not None:
            await self.tell_spectator_count(count)

    async def tell_spectator_count(self, count: int) -> None:
        if not self.layer_ok or self.channel_layer is None:
            return
        group = broadcast.spectators_group(self.game_id)
        try:
            await self.channel_layer.group_send(group, {
                "type": "frame.send",
                "text": broadcast.encode(presence.spectators_frame(self.game_id, count))})
        except Exception as error:
            broadcast.health.failed(group, error)

    async def subscribe_spectators(self) -> None:
        """`{"type": "spectators"}`: the count now, and each change from now on."""
        await self.join(broadcast.spectators_group(self.game_id))
        count = await quietly(off_loop(presence.spectators)(self.game_id))
        await self.send_json(presence.spectators_frame(self.game_id, count or 0))

    def count_anonymous(self) -> bool:
        """Take one of this address's and this game's anonymous spectator places."""
        if not limits.anonymous_by_address.take(self.address,
                                                settings.LIVE_ANONYMOUS_PER_ADDRESS):
            return False
        if not limits.anonymous_by_game.take(self.game_id, settings.LIVE_ANONYMOUS_PER_GAME):
            limits.anonymous_by_address.give_back(self.address)
            return False
        self.counted = (self.address, self.game_id)
        return True

    def load_state(self) -> dict[str, Any]:
        if self.actor is not None and self.actor.user_id is not None \
                and plays_through_api(self.actor.user_id):
            self.actor = None  # a BOT account plays through the API only: it watches here
        game = services.get_game(self.game_id)
        if access.run_open_checks(game) or services.flag_if_due(game):  # it ended on opening
            game = services.get_game(self.game_id)
        reason = access.hidden_reason(game, self.actor)
        if reason:
            raise GameError(Code.HIDDEN, reason)
        self.mode = game.mode
        self.hides = game.kind.hidden_information
        self.max_token = game.kind.max_token_length
        self.seat = services.seat_of(game, self.actor)
        self.parts_open(game)
        self.present = services.player_arrived(game, self.seat)
        lg = services.live(game)
        state = services.with_queue(services.state_of(game, lg, viewer=self.seat), game,
                                    self.seat, lg)
        self.group = audiences.group_of(game, self.seat)  # the one audience it may hear
        self.client_rev = game.revision
        if self.seat is not None:  # its turns will come here (games.fast.warm)
            warm.keep_if_cold(game, lg)
        return state

    async def disconnect(self, code: int) -> None:
        if self.watching:
            watching, self.watching = self.watching, ""
            count = await quietly(off_loop(presence.unwatch)(self.game_id, watching))
            if count is not None:
                await self.tell_spectator_count(count)
        await self.leave_groups()
        if self.present and self.seat is not None:
            self.present = False
            await db(services.player_went_away)(self.game_id, self.seat)
        if self.counted is not None:
            address, game_id = self.counted
            limits.anonymous_by_address.give_back(address)
            limits.anonymous_by_game.give_back(game_id)
            self.counted = None

    def holds_seat(self) -> bool:
        """Does this socket's actor still act for its seat? (Not once a bot took it over.)"""
        game = services.get_game(self.game_id)
        return self.actor is not None and self.seat is not None \
            and self.actor.holds(game.seat_list[self.seat])

    async def seat_changed(self, message: dict[str, Any]) -> None:
        """`seat.changed` (games.frames.audiences): this socket's seat changed hands. Unless its
        actor still holds it, move to the audience the viewer has now and send its state;
        the seat's frames still on their way to this socket are dropped (`frame_send`)."""
        if self.seat is None or message.get("seat") != self.seat:
            return
        try:
            if await db(self.holds_seat)():
                return
            state = await self.move_audience()
        except DATABASE_DOWN as error:
            await self.database_down(error)
            return
        await self.send_state(state)
        # What was sent to the new audience between reading that state and joining its
        # group (CargoBot playing the seat on at once, issue #43's flake) is pushed now,
        # not left for the next `ping`.
        await self.catch_up_if_behind()
        await self.count_spectators()

    async def move_audience(self) -> dict[str, Any]:
        """Leave the seat's group for the one this socket's viewer has now (a spectator's,
        or another seat the actor holds): the seat's presence given back, the viewer's
        state read and its group joined, as on connect (a frame sent in between is
        repaired by the next `ping`'s catch-up). The new viewer's state, to send."""
        old_group, old_seat = self.group, self.seat
        if self.present and old_seat is not None:
            self.present = False
            await db(services.player_went_away)(self.game_id, old_seat)
        state = await service(self.load_state)()
        if self.group != old_group:
            self.left = self.left | {old_group}
            await self.leave(old_group)
            await self.join(self.group)
        self.client_ply = state_ply(state)
        return state

    async def frame_send(self, message: dict[str, Any]) -> None:
        if message.get("group") in self.left:  # built for the seat this socket no longer
            return  # holds, already on its way when the seat changed hands
        turn = message.get("turn")
        if turn and isinstance(turn[0], int):
            if turn[0] in self.told:  # this socket was sent this turn already (answered
                return  # directly, or by a catch-up): once is enough
            self.tell(turn[0])
        if isinstance(message.get("revision"), int) and settings.LIVE_FRAME_DIFFS:
            # a game frame: it carries a state, or its diff (games.frames.diffs)
            await self.send(text_data=self.holding.frame_text(message["text"]))
        else:
            await super().frame_send(message)
        revision = message.get("revision")
        if isinstance(revision, int):
            follow(self.game_id, revision, message.get("turn"))  # games.fast
            self.client_rev = max(self.client_rev, revision)
        ply = message.get("ply")
        if isinstance(ply, int) and ply > self.client_ply:
            self.client_ply = ply

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content["type"]
        if kind == "ping":
            await self.catch_up_if_behind()
            if self.watching:
                await quietly(off_loop(presence.watch)(self.game_id, self.watching))
            await self.mark_seen()
            await self.send_json({"type": "pong"})
        elif kind == "turn":
            ply, token = ply_of(content.get("ply")), content.get("token")
            if ply is None or not isinstance(token, str) or not token \
                    or len(token) > self.max_token:
                await self.send_error(Code.BAD_FRAME, 'a turn is {"type": "turn", "ply": int, '
                                      '"token": str}')
                return
            await self.call(self.play, ply, token)
        elif kind == "queue":
            key, steps = content.get("key"), content.get("steps")
            if not isinstance(key, str) or not 0 < len(key) <= MAX_QUEUE_KEY \
                    or not isinstance(steps, list) or len(steps) > MAX_QUEUE_STEPS \
                    or not all(isinstance(s, str) and 0 < len(s) <= self.max_token
                               for s in steps):
                await self.send_error(Code.BAD_FRAME, 'a queue is {"type": "queue", "key": '
                                      f'str, "steps": [str, …]}} (at most {MAX_QUEUE_STEPS}'
                                      ' steps; none cancels)')
                return
            await self.call(self.queue, key, steps)
        elif kind == "resign":
            if "ply" in content and ply_of(content["ply"]) is None:
                await self.send_error(Code.BAD_FRAME,
                                      'a resign is {"type": "resign", "ply": int}')
                return
            await self.call(self.resign, content.get("ply"))
        elif kind == "spectators":
            await self.subscribe_spectators()
        elif kind == "abort":
            await self.call(self.abort)
        elif kind == "claim":
            result, seat = content.get("result"), ply_of(content.get("seat"))
            if "seat" in content and seat is not None and "result" not in content:
                await self.call(self.claim_seat, seat)  # more than two seats
                return
            if result not in ("win", "draw"):
                await self.send_error(Code.BAD_FRAME,
                                      'a claim is {"type": "claim", "result": "win" | "draw"}'
                                      ' or, with more than two seats, {"type": "claim", '
                                      '"seat": int}')
                return
            await self.call(self.claim, result)
        elif kind == "sync":
            after = ply_of(content.get("after"))
            if after is None:
                await self.send_error(Code.BAD_FRAME,
                                      'a sync is {"type": "sync", "after": int}')
                return
            await self.call(self.sync, after)
        elif not await self.parts_receive(kind, content):  # the chat's: chat/socket.py
            await self.send_error(Code.BAD_FRAME, f"unknown frame type {kind[:32]!r}")

    async def call(self, handler: Callable[..., Awaitable[None]], *args: Any) -> None:
        try:
            await handler(*args)
        except GameError as refused:
            metrics.refused(refused.code)
            await self.send_json(refused.frame())
            if refused.state is not None:  # a stale ply, a refused abort or claim
                await self.send_state(refused.state)
            if self.revoked:
                await self.close(code=CLOSE_SIGNED_OUT)

    async def check_player(self, what: str, *, session: bool = True) -> None:
        """A seat's socket whose session still holds (`session=False`: the caller's write
        checks the session itself)."""
        if self.seat is None:
            raise GameError(Code.NOT_A_PLAYER, f"spectators cannot {what}")
        if self.revoked or (session and not await self.signed_in()):
            self.revoked = True  # `call` sends the refusal, then closes
            raise SignedOut()

    async def play(self, ply: int, token: str) -> None:
        await self.check_player("play", session=False)
        if access.has_open_checks(self.mode):
            await service(access.run_open_checks_for)(self.game_id)
        failed_before = broadcast.failures()
        try:
            result = None
            if loopdb.enabled():  # the common turn, without a thread (games.fast.turns)
                result = await apply_turn_on_loop(
                    self.game_id, actor=self.actor, ply=ply, token=token, guard=self.guard)
            if result is None:
                result = await service(services.apply_turn)(
                    self.game_id, actor=self.actor, ply=ply, token=token, guard=self.guard)
        except SignedOut:
            self.revoked = True
            raise
        # A fresh turn's acknowledgement is the group broadcast, unless that failed; a
        # resent one is answered here, unless it repeats the decision the site made for
        # the seat as its flag fell during this very call: that frame went to the seat's
        # group with the call's own (in order), so the socket hears it there. A group copy
        # of a turn answered here that comes later is not passed on (`frame_send`).
        heard = result.heard and broadcast.failures() == failed_before
        if (result.duplicate and not heard) or not (result.duplicate or result.delivered):
            if isinstance(result.frame.get("ply"), int):
                self.tell(result.frame["ply"])
            await self.send_whole(result.frame)
        self.client_ply = max(self.client_ply, state_ply(result.frame["state"]))

    def tell(self, ply: int) -> None:
        """Note that this socket passed the turn stored at `ply` to its client."""
        if len(self.told) >= MAX_TOLD:  # a long game: the oldest plies are never resent
            self.told = set(sorted(self.told)[MAX_TOLD // 2:])
        self.told.add(ply)

    async def queue(self, key: str, steps: list[str]) -> None:
        """A pre-turn queued, replaced or cancelled (games.turns.preturns): the `queued` frame
        comes through the seat's own group."""
        await self.check_player("queue a turn")
        await self.answer(db(services.queue_turn)(self.game_id, actor=self.actor, key=key,
                                                  steps=steps))

    async def resign(self, ply: int | None) -> None:
        await self.check_player("resign")
        if access.has_open_checks(self.mode):
            await service(access.run_open_checks_for)(self.game_id)
        await self.answer(service(services.resign)(self.game_id, actor=self.actor, ply=ply))

    async def abort(self) -> None:
        await self.check_player("abort the game")
        await self.answer(db(services.abort_game)(self.game_id, actor=self.actor))

    async def claim(self, result: str) -> None:
        await self.check_player("claim the game")
        await self.answer(db(services.claim_game)(self.game_id, actor=self.actor,
                                                  result=result))

    async def claim_seat(self, seat: int) -> None:
        """More than two seats: hand `seat`, whose player left, to its stand-in."""
        await self.check_player("claim a seat")
        await self.answer(service(services.claim_seat)(self.game_id, actor=self.actor,
                                                       seat=seat))

    async def answer(self, call: Awaitable[dict[str, Any]]) -> None:
        """A service call whose frame the group gets: sent here too if a broadcast failed
        meanwhile (the group may not have had it)."""
        failed_before = broadcast.failures()
        frame = await call
        if broadcast.failures() != failed_before:
            await self.send_whole(frame)

    async def sync(self, after: int) -> None:
        if not await self.audience_held():
            return
        data = await db(services.catch_up)(self.game_id, after=after, viewer=self.seat)
        await self.send_catch_up(data)

    async def audience_held(self) -> bool:
        """Before a catch-up built for this socket's seat: does its actor still hold it?
        A socket that missed its `seat.changed` (the layer was down) moves now instead,
        and is sent the state its viewer has now (False: nothing more to send)."""
        if self.seat is None or not self.hides or await db(self.holds_seat)():
            return True
        state = await self.move_audience()
        await self.send_state(state)
        await self.count_spectators()
        return False

    async def send_catch_up(self, data: dict[str, Any]) -> None:
        sent = 0
        for frame in data["turns"]:  # asked for: sent even if this socket had them
            if isinstance(frame.get("ply"), int):  # (the page drops a gap's frame)
                self.tell(frame["ply"])
            text = broadcast.encode(frame)
            sent += len(text)
            await self.send(text_data=text)
        await self.send_state(data["state"])
        self.extra_cost += limits.sync_cost(sent)
        self.client_ply = max(self.client_ply, state_ply(data["state"]))
        self.client_rev = max(self.client_rev, data.get("rev", 0))

    async def catch_up_if_behind(self) -> None:
        """Frames the group could not bring (the layer was down): push what the client
        lacks, as if it had sent `sync`: turns it has not had, and the state when the row
        changed since its last frame (a resignation, an ending, a rematch, a void)."""
        now = await db(services.current_revision)(self.game_id)
        if now is not None and (now[0] > self.client_ply or now[1] > self.client_rev):
            if not await self.audience_held():
                return
            data = await db(services.catch_up)(self.game_id, after=self.client_ply,
                                                viewer=self.seat)
            await self.send_catch_up(data)

    async def rejoined(self) -> None:
        if self.group:
            await self.catch_up_if_behind()
