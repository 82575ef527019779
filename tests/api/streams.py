"""Reading the API's live streams in a test: a request through Django's `AsyncClient`
(an ASGI request, so the stream's body is the async iterator waiting on the channel layer)
and its NDJSON read a line at a time, each with a time limit."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from django.test import AsyncClient


class Stream:
    """An open stream: `await line()` is the next line (b"" the keep-alive), decoded by
    `frame()`; `await ended()` says whether the stream closed."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.status = response.status_code
        self.chunks = response.streaming_content if response.streaming else None
        self.buffer = b""
        self.closed = False
        self.lines: list[bytes] = []  # every line read, keep-alives included

    async def line(self, timeout: float = 5) -> bytes:
        while b"\n" not in self.buffer:
            assert self.chunks is not None and not self.closed, "the stream has ended"
            try:
                chunk = await asyncio.wait_for(anext(self.chunks), timeout)
            except StopAsyncIteration:
                self.closed = True
                raise AssertionError("the stream ended") from None
            self.buffer += bytes(chunk)
        got, _, self.buffer = self.buffer.partition(b"\n")
        self.lines.append(got)
        return got

    async def frame(self, timeout: float = 5) -> dict[str, Any]:
        """The next line that is not a keep-alive, decoded, within `timeout` seconds."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, "no frame in time, only keep-alives"
            got = await self.line(left)
            if got:
                return orjson.loads(got)

    async def ended(self, timeout: float = 5) -> bool:
        """Did the stream close (after any lines left unread)? Keep-alives are skipped."""
        if self.buffer.strip():
            return False
        while True:
            try:
                chunk = await asyncio.wait_for(anext(self.chunks), timeout)
            except StopAsyncIteration:
                self.closed = True
                return True
            if bytes(chunk).strip():
                self.buffer += bytes(chunk)
                return False

    async def close(self) -> None:
        if self.chunks is not None and not self.closed:
            self.closed = True
            await self.chunks.aclose()


async def open_stream(path: str, token: str | None) -> Stream:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = await AsyncClient().get(path, headers=headers)
    return Stream(response)
