"""Trial 10 (issue #42, point 2): a Cargo Express table of three through nginx; one member
resigns with their socket still open, a bot plays their seat on, and every frame that
socket reads afterwards is free of the bot seat's plan, hand, contracts and private events."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from typing import Any

from live_client import Held, insecure_context
from websockets.asyncio.client import connect as ws_connect
from websockets.typing import Origin

from .harness import Trial
from .rows import fresh, member
from .servers import Topology

LEAVER = 2  # the seat whose member resigns in the leaver's trial
PRIVATE_EVENTS = ("plan-chosen", "contracts-offered", "contracts-drawn")


@fresh
def express_table(tag: str) -> tuple[str, list[str]]:
    """A casual, untimed Cargo Express game of three new members: (id, their sessions)."""
    from games import services
    from games.kinds.cargo_express import CARGO_EXPRESS

    members = [member(f"{tag}-{seat}") for seat in range(3)]
    game = services.create_game(game_type=CARGO_EXPRESS.key, options={}, rated=False,
                                seats=[services.Actor.member(user) for user, _ in members])
    return game.id, [session for _, session in members]


@fresh
def express_bot_secrets(game_id: str, after_ply: int) -> dict[str, Any]:
    """What the bot decided for the leaver's seat since `after_ply`: its decisions and the
    private events they made (a plan chosen, contracts drawn), and whether the game ended."""
    from games.models import Game, Turn

    turns = Turn.objects.filter(game_id=game_id, seat=LEAVER, ply__gte=after_ply)
    kinds = [e.get("kind") for t in turns for e in t.events if e.get("only") is not None]
    game = Game.objects.get(id=game_id)
    return {"decisions": turns.count(), "private_events": len(kinds),
            "plans_chosen": kinds.count("plan-chosen"), "status": game.status,
            "stand_in": game.seat_list[LEAVER].stand_in}


def leaver_secrets(frame: dict[str, Any]) -> list[str]:
    """What `frame` shows of the leaver's former seat that a spectator may not see."""
    found = []
    state = frame.get("state") or {}
    if state.get("viewer") == LEAVER or state.get("you") is not None:
        found.append("viewer")
    if "areas" in state and not state.get("over"):
        area = state["areas"][LEAVER]
        found += [key for key in ("plan", "hand", "open") if area.get(key) is not None]
        found += [key for key in ("drawn", "legal", "queued") if state.get(key)]
    for event in frame.get("events") or []:
        if event.get("kind") in PRIVATE_EVENTS or event.get("only") is not None:
            found.append(str(event.get("kind")))
    if frame.get("type") == "queued":
        found.append("queued")
    return found


async def leaver(top: Topology, game_id: str, session: str, done: asyncio.Event,
                 figures: dict[str, Any]) -> None:
    """The leaver's page: it makes its first decision (its pick) from its own frames, then
    resigns and keeps its socket open, reading every frame until the game is over or
    `done`; each frame from its `resigned` on is checked (`leaver_secrets`)."""
    from express_client import decide

    rng = random.Random(9)
    after: list[dict[str, Any]] = []
    own_before = decided = 0
    resigned = False
    async with ws_connect(_ws(top, game_id), origin=Origin(top.base),
                          additional_headers={"Cookie": f"sessionid={session}"},
                          ssl=insecure_context(), compression=None, max_size=2 ** 22,
                          open_timeout=30) as ws:
        held = Held()  # frames after the first state carry diffs: rebuilt as the page does
        while not done.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            frame = held.read(text)
            if frame.get("type") == "resigned" and frame.get("seat") == LEAVER:
                resigned = True
                figures["left_at_ply"] = frame.get("ply")
            if resigned:
                after.append(frame)
                if (frame.get("state") or {}).get("over"):
                    break
                continue
            state = frame.get("state") or {}
            if any(a.get("hand") is not None for a in state.get("areas", [])):
                own_before += 1  # the seat's own secrets, while it was its member's
            if state.get("viewer", LEAVER) == LEAVER and state.get("legal") and not decided:
                chosen = decide(state, rng)
                if chosen is not None:
                    decided = 1
                    await ws.send(json.dumps({"type": "turn", "ply": state["seqs"][LEAVER],
                                              "token": chosen[1]}))
            elif decided == 1 and frame.get("type") == "turn" and frame.get("seat") == LEAVER:
                decided = 2
                await ws.send(json.dumps({"type": "resign"}))
    leaks = [f"{f.get('type')} ply {f.get('ply')}: {', '.join(leaver_secrets(f))}"
             for f in after if leaver_secrets(f)]
    figures.update({
        "frames_with_its_own_secrets_before_leaving": own_before,
        "frames_read_after_leaving": len(after),
        "spectator_state_after_leaving": any(
            f.get("type") == "state" and f["state"].get("viewer") is None for f in after),
        "private_frames_after_leaving": len(leaks), "first_private_frames": leaks[:5]})


def _ws(top: Topology, game_id: str) -> str:
    return top.base.replace("https", "wss", 1) + f"/ws/game/{game_id}/"


async def trial_leaver_socket(top: Topology) -> Trial:
    """Issue #42, point 2: a Cargo Express leaver's open socket hears nothing of the seat a
    bot plays on after them, through nginx and whichever ASGI process serves it."""
    from express_client import ExpressSeat, ExpressStats
    from express_client import Table as ExpressTable

    trial = Trial("a Cargo Express leaver's open socket")
    game_id, sessions = await asyncio.to_thread(express_table, f"leaver-{secrets.token_hex(3)}")
    table, stats, stop = ExpressTable(game_id), ExpressStats(), asyncio.Event()
    seats = [ExpressSeat(table, seat, sessions[seat], top.base, think=0.05, stats=stats,
                         stop=stop, rng=random.Random(seat)) for seat in (0, 1)]
    players = [asyncio.create_task(seat.play()) for seat in seats]
    figures: dict[str, Any] = {}
    done = asyncio.Event()
    reader = asyncio.create_task(leaver(top, game_id, sessions[LEAVER], done, figures))
    started = time.perf_counter()
    while time.perf_counter() - started < 180 and not reader.done() \
            and not all(p.done() for p in players):
        await asyncio.sleep(0.5)
    done.set()
    stop.set()
    results = await asyncio.gather(reader, *players, return_exceptions=True)
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    trial.figures.update(figures)
    bot = await asyncio.to_thread(express_bot_secrets, game_id,
                                  figures.get("left_at_ply") or 0)
    trial.figures.update({"game": game_id, "bot_seat": bot, "play_s":
                          round(time.perf_counter() - started, 1),
                          "others_leaks": stats.leak_count, "client_failures": failures})
    trial.check(not failures, f"clients failed: {failures}")
    trial.check(figures.get("left_at_ply") is not None, "the member never resigned")
    trial.check(figures.get("frames_with_its_own_secrets_before_leaving", 0) > 0,
                "the leaver's socket never had its seat's own view (not a seat's socket?)")
    trial.check(bot["stand_in"] is not None and bot["private_events"] > 0,
                f"no bot decided anything private for the seat after the leave: {bot}")
    trial.check(figures.get("private_frames_after_leaving") == 0,
                f"the leaver's socket got the bot seat's secrets: "
                f"{figures.get('first_private_frames')}")
    trial.check(bool(figures.get("spectator_state_after_leaving")),
                "the leaver's socket was not sent a spectator's state")
    trial.check(stats.leak_count == 0, f"the players' sockets saw leaks: {stats.leaks}")
    return trial
