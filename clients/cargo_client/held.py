"""What a client holds of one game, rebuilt from the lines of its game stream as the page's
socket does (docs/live-protocol.md): the state its connection holds, set by every frame
that carries a whole `state` and rebuilt from a frame that carries `base` and `diff`
instead; the viewer's seat, read from the first state (a frame's state may leave out
`viewer`, as Cargo Connect's broadcast states do); and what that seat must do now."""

from __future__ import annotations

from typing import Any

from cargo_client.diff import DiffError, apply


class OutOfStep(Exception):
    """A diff that does not start from the state held, or does not fit it: the client
    reconnects, and the new stream's first line is the whole state."""


class HeldState:
    """The state a game stream's client holds (`state`) and the seat it plays (`seat`:
    None for a spectator, known once the first state has arrived)."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None
        self.diffs = 0  # frames rebuilt from a diff

    def reset(self) -> None:
        """A new connection: its first line is a whole state."""
        self.state = None

    def take(self, frame: dict[str, Any]) -> dict[str, Any]:
        """The frame with its whole `state` (a diff applied); a frame without a state
        comes back as it was. Raises OutOfStep for a diff from another state."""
        if "diff" in frame:
            base = frame.get("base")
            if self.state is None or self.state.get("rev") != base:
                held = None if self.state is None else self.state.get("rev")
                self.state = None
                raise OutOfStep(f"a diff from revision {base!r}, the state held is at "
                                f"revision {held!r}")
            try:
                rebuilt = apply(self.state, frame["diff"])
            except DiffError as e:
                self.state = None
                raise OutOfStep(str(e)) from None
            if not isinstance(rebuilt, dict):
                self.state = None
                raise OutOfStep("a diff that leaves no state")
            self.state = rebuilt
            self.diffs += 1
            whole = {k: v for k, v in frame.items() if k not in ("diff", "base")}
            whole["state"] = rebuilt
            return whole
        state = frame.get("state")
        if isinstance(state, dict):
            if frame.get("type") == "state" and isinstance(state.get("viewer"), int):
                self.seat = state["viewer"]
            self.state = state
        return frame

    # --- what the seat must do ---------------------------------------------------------

    @property
    def over(self) -> bool:
        """The game has ended (the site's `status`, or the kind's `over`)."""
        state = self.state or {}
        return state.get("status", "active") != "active" or bool(state.get("over"))

    @property
    def number(self) -> int:
        """The number the seat's next decision carries: its own entry of `seqs` in a game
        whose seats decide at once (Cargo Express), else the game's `ply`."""
        state = self.state or {}
        seqs = state.get("seqs")
        if isinstance(seqs, list) and self.seat is not None:
            return int(seqs[self.seat])
        return int(state.get("ply", 0))

    @property
    def must_decide(self) -> bool:
        """The seat is among those the game waits on now (`acting`)."""
        state = self.state or {}
        return self.seat is not None and not self.over and self.seat in state.get("acting", [])
