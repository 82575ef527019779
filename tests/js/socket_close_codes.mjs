// GameSocket's reconnects honour the server's close codes (issue #28): run by
// tests/test_socket_close_codes.py with node, against a copy of static/js/live/.
import assert from "node:assert/strict";

const timers = [];
globalThis.setTimeout = (fn, ms) => { timers.push({ fn, ms }); return timers.length; };
globalThis.clearTimeout = () => {};
globalThis.setInterval = () => 0;
globalThis.clearInterval = () => {};
globalThis.window = { location: { protocol: "https:", host: "cargo.example", href: "https://cargo.example/g/x" } };
globalThis.fetch = async () => ({ ok: true, json: async () => ({ turns: [] }) });

class FakeSocket {
  static made = [];
  constructor(url) { this.url = url; this.listeners = {}; this.readyState = 0; FakeSocket.made.push(this); }
  addEventListener(kind, fn) { (this.listeners[kind] ||= []).push(fn); }
  fire(kind, event = {}) { for (const fn of this.listeners[kind] || []) fn(event); }
  send() {}
  close() {}
}
FakeSocket.OPEN = 1;
globalThis.WebSocket = FakeSocket;
window.WebSocket = FakeSocket;

const { GameSocket, afterClose } = await import("./socket.js");

function refusedWith(code) {
  timers.length = 0;
  FakeSocket.made.length = 0;
  const statuses = [];
  const socket = new GameSocket({ wsPath: "/ws/game/x/", eventsUrl: "/g/x/events", ply: 0 },
                                { onStatus: (s) => statuses.push(s) });
  socket.start();
  const ws = FakeSocket.made[0];
  ws.fire("open");        // the server accepts ...
  ws.fire("close", { code }); // ... and closes with its code at once
  const reconnects = timers.filter((t) => t.fn.toString().includes("connect()"));
  return { socket, statuses, reconnects };
}

assert.equal(afterClose(4403), "stop");
assert.equal(afterClose(4404), "stop");
assert.equal(afterClose(4430), "poll");
assert.equal(afterClose(1013), "later");
assert.equal(afterClose(4429), "later");
assert.equal(afterClose(1006), "reconnect");

for (const code of [4403, 4404]) {
  const { statuses, reconnects } = refusedWith(code);
  assert.equal(reconnects.length, 0, `no reconnect after ${code}`);
  assert.equal(statuses.at(-1), "offline");
}
{
  const { socket, reconnects } = refusedWith(4430);
  assert.equal(socket.polling, true, "4430: follows the game over HTTP");
  assert.deepEqual(reconnects.map((t) => t.ms), [60_000], "4430: a socket again after a minute");
}
for (const code of [1013, 4429]) {
  const { reconnects } = refusedWith(code);
  assert.equal(reconnects.length, 1);
  assert.ok(reconnects[0].ms >= 2000, `${code}: backs off at least 2 s (${reconnects[0].ms})`);
}
{
  const { reconnects } = refusedWith(1006);
  assert.equal(reconnects.length, 1);
  assert.ok(reconnects[0].ms <= 500, "a dropped socket comes back at once");
}
console.log("ok");
