// Frames that carry what changed (docs/live-protocol.md, games/frames/diffs.py): after the
// whole state a socket sends first, each game frame it sends may carry `base` (the `rev` of
// the state this connection holds) and `diff` instead of `state`. A diff is a list of
// operations: `[path, value]` sets the value at `path` (at the index just past a list's end:
// appends it), `[path]` removes the key at `path`;
// a path is a list of object keys (strings) and list indexes (numbers), `[]` the whole
// state. It knows no game: only JSON values.

export class DiffError extends Error {}

function copy(value) {
  if (Array.isArray(value)) return value.slice();
  if (value !== null && typeof value === "object") return { ...value };
  throw new DiffError("a path goes through a value that is not an object or a list");
}

function child(parent, key) {
  if (Array.isArray(parent)) {
    if (Number.isInteger(key) && key >= 0 && key < parent.length) return parent[key];
  } else if (typeof key === "string" && Object.hasOwn(parent, key)) {
    return parent[key];
  }
  throw new DiffError(`no ${JSON.stringify(key)} on the path`);
}

/** `state` with the operations of `ops` applied. `state` itself is left as it was: each
 * object and list on an operation's path is copied, the rest is shared. Throws a
 * DiffError when an operation does not fit the state (the page then asks for it whole). */
export function applyDiff(state, ops) {
  if (!Array.isArray(ops)) throw new DiffError("a diff is a list of operations");
  let out = state;
  for (const op of ops) {
    if (!Array.isArray(op) || (op.length !== 1 && op.length !== 2) || !Array.isArray(op[0])) {
      throw new DiffError("not an operation");
    }
    const path = op[0];
    if (path.length === 0) {
      if (op.length === 1) throw new DiffError("the whole state cannot be removed");
      out = op[1];
      continue;
    }
    out = copy(out);
    let parent = out;
    for (const key of path.slice(0, -1)) {
      const next = copy(child(parent, key));
      parent[key] = next;
      parent = next;
    }
    const last = path[path.length - 1];
    if (op.length === 2) {
      if (Array.isArray(parent)) {
        if (!Number.isInteger(last) || last < 0 || last > parent.length) {
          throw new DiffError(`no item ${last} to set`);
        }
      } else if (typeof last !== "string") {
        throw new DiffError("an object's key is a string");
      }
      parent[last] = op[1];
    } else {
      if (Array.isArray(parent) || typeof last !== "string" || !Object.hasOwn(parent, last)) {
        throw new DiffError(`no key ${JSON.stringify(last)} to remove`);
      }
      delete parent[last];
    }
  }
  return out;
}

/** What a socket's client holds: the state the socket last sent whole, or rebuilt from a
 * diff. `take(frame)` gives the frame with its whole `state` (a diff applied), or null when
 * the diff does not start from the state held (the page then catches up: `sync`). */
export class HeldState {
  constructor() {
    this.state = null;
    this.applied = 0; // diffs applied on this page (for tests and debugging)
  }

  reset() {
    this.state = null; // a new connection: its first state comes whole
  }

  take(frame) {
    if (frame === null || typeof frame !== "object") return frame;
    if (frame.diff !== undefined) {
      if (this.state === null || this.state.rev !== frame.base) {
        this.state = null;
        return null;
      }
      let next;
      try {
        next = applyDiff(this.state, frame.diff);
      } catch (error) {
        if (!(error instanceof DiffError)) throw error;
        this.state = null;
        return null;
      }
      this.state = next;
      this.applied += 1;
      const { diff: _diff, base: _base, ...rest } = frame;
      return { ...rest, state: next };
    }
    if (frame.state !== null && typeof frame.state === "object") this.state = frame.state;
    return frame;
  }
}
