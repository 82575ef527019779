// The curators' visual puzzle editor in the admin, over the puzzle record's textarea.
// Click a cell to cycle empty → Blue core → Orange core → Empty Can → empty; a change that
// would leave a module floating is refused. Hand, shelf, MagLock, Blue's points, goal and
// turn limit are form controls. Every change rewrites the record text; editing the text
// redraws the editor. The server reads only the text, and the engine checks it again
// (this page only writes the notation: docs/puzzles-site.md).
const LETTERS = "abcdefgh";
const CYCLE = { ".": "B", B: "O", O: "x", x: "." };
const WORD = { ".": "empty", B: "Blue core", O: "Orange core", x: "Empty Can" };
const HEADER = /^\[([A-Za-z][A-Za-z0-9_]*) "([^"]*)"\]/;

const root = document.querySelector("[data-puzzle-editor]");
const config = JSON.parse(root.dataset.config);
const text = document.getElementById("id_record");

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

function blank(n) {
  return {
    n, rules: "0.92", board: Array.from({ length: n }, () => ".".repeat(n).split("")),
    hand: new Set(), lock: "-", shelf: {}, points: 0, turnsTaken: 0,
    goalKind: "unload", goalArg: "I", limit: 1, other: [],
  };
}

/** The editor's model from record text, or an error message. */
function parse(record) {
  const headers = {};
  const other = [];
  for (const line of record.split(/\r?\n/)) {
    const m = HEADER.exec(line.trim());
    if (m) {
      headers[m[1]] = m[2];
      if (!["Size", "Rules", "Start", "Goal", "Turns"].includes(m[1])) other.push(line.trim());
    } else if (line.trim() && !line.trim().startsWith("#")) return "the record holds turns: a puzzle to publish has none";
  }
  if (!headers.Start) return "the record has no Start header";
  const f = headers.Start.split(" ");
  if (f.length !== 11) return "the Start position needs 11 fields";
  const rows = f[0].split("/");
  const n = rows.length;
  if (n < 5 || n > 8 || rows.some((r) => r.length !== n || /[^.BOx]/.test(r))) return "the board field is not an N×N bay of . B O x";
  const model = blank(n);
  model.board = rows.map((r) => r.split(""));
  model.hand = new Set(f[2] === "-" ? [] : f[2].split(""));
  model.lock = f[4];
  for (const c of f[5] === "-" ? [] : f[5].split("")) model.shelf[c.toUpperCase()] = c === c.toUpperCase() ? "gold" : "steel";
  model.points = Number(f[7]) || 0;
  model.turnsTaken = Number(f[9]) || 0;
  model.rules = f[10];
  const [kind, arg] = (headers.Goal || "unload:I").split(":");
  model.goalKind = kind;
  model.goalArg = arg;
  model.limit = Number(headers.Turns) || 1;
  model.other = other;
  return model;
}

function format(m) {
  const board = m.board.map((r) => r.join("")).join("/");
  const hand = config.cards.map(([c]) => c).filter((c) => m.hand.has(c)).join("") || "-";
  const shelf = config.shapes.filter((s) => m.shelf[s]).map((s) => (m.shelf[s] === "gold" ? s : s.toLowerCase())).join("") || "-";
  const start = [board, "b", hand, "-", m.lock || "-", shelf, "-", m.points, 0, m.turnsTaken, m.rules].join(" ");
  return [
    ...m.other.filter((l) => !/^\[(Fewest|NeedsCard|Interest|ProofNodes|ProofSeconds) /.test(l)),
    `[Size "${m.n}"]`, `[Rules "${m.rules}"]`, `[Start "${start}"]`,
    `[Goal "${m.goalKind}:${m.goalArg}"]`, `[Turns "${m.limit}"]`, "",
  ].join("\n");
}

let model = parse(text.value);
if (typeof model === "string") model = blank(5);
const note = h("p", { class: "editor-note", role: "status" });

function cellName(x, y) {
  return LETTERS[x] + String(model.n - y);
}

function click(x, y) {
  const now = model.board[y][x];
  const next = CYCLE[now];
  const below = y + 1 < model.n ? model.board[y + 1][x] : "#";
  const above = y > 0 ? model.board[y - 1][x] : ".";
  if (now === "." && below === ".") {
    note.textContent = `Refused: a module at ${cellName(x, y)} would float (the cell below is empty).`;
    return;
  }
  if (next === "." && above !== ".") {
    note.textContent = `Refused: emptying ${cellName(x, y)} would leave the module above it floating.`;
    return;
  }
  model.board[y][x] = next;
  note.textContent = `${cellName(x, y)}: ${WORD[next]}.`;
  commit();
}

function commit() {
  text.value = format(model);
  render();
}

function select(label, value, options, onChange, attrs = {}) {
  const s = h("select", attrs);
  for (const [v, t] of options) {
    const o = h("option", { value: v }, t);
    if (String(v) === String(value)) o.selected = true;
    s.append(o);
  }
  s.addEventListener("change", () => onChange(s.value));
  return h("label", { class: "editor-field" }, `${label} `, s);
}

function number(label, value, min, max, onChange, attrs = {}) {
  const i = h("input", { type: "number", min, max, value, ...attrs });
  i.addEventListener("change", () => onChange(Math.max(min, Math.min(max, Number(i.value) || min))));
  return h("label", { class: "editor-field" }, `${label} `, i);
}

function render() {
  const m = model;
  root.replaceChildren();
  // A group of buttons, not an ARIA grid (a grid needs rows of gridcells and arrow keys).
  const grid = h("div", { class: "editor-grid", role: "group", "aria-label": "Cargo Bay (click a cell to change it)" });
  grid.style.setProperty("--n", String(m.n));
  for (let y = 0; y < m.n; y++) {
    for (let x = 0; x < m.n; x++) {
      const v = m.board[y][x];
      const lockHere = m.lock === LETTERS[x] || m.lock === String(m.n - y);
      grid.append(h("button", {
        type: "button", class: `editor-cell k-${v === "." ? "e" : v}${lockHere ? " is-locked" : ""}`,
        "data-cell": cellName(x, y), "aria-label": `${cellName(x, y)}: ${WORD[v]}`, onclick: () => click(x, y),
      }, v === "." ? "" : v));
    }
  }
  const sizes = [5, 6, 7, 8].map((n) => [n, `${n}×${n}`]);
  const top = h("div", { class: "editor-row" },
    select("Bay", m.n, sizes, (v) => {
      if (Number(v) === m.n) return;
      const keep = { ...m, ...blank(Number(v)), hand: m.hand, shelf: m.shelf, goalKind: m.goalKind, goalArg: m.goalArg, limit: m.limit, rules: m.rules, other: m.other };
      model = keep;
      note.textContent = `A new empty ${v}×${v} bay.`;
      commit();
    }, { "data-field": "size" }),
    select("Rules", m.rules, config.rules.map((r) => [r, r]), (v) => { m.rules = v; commit(); }),
    select("MagLock", m.lock, [["-", "none"],
      ...LETTERS.slice(0, m.n).split("").map((c) => [c, `column ${c}`]),
      ...Array.from({ length: m.n }, (_, i) => [String(i + 1), `row ${i + 1}`])],
    (v) => { m.lock = v; commit(); }, { "data-field": "lock" }),
    number("Blue's points", m.points, 0, 999, (v) => { m.points = v; commit(); }));
  const hand = h("fieldset", { class: "editor-row" }, h("legend", {}, "Blue's hand"));
  for (const [card, name] of config.cards) {
    const box = h("input", { type: "checkbox", "data-card": card });
    box.checked = m.hand.has(card);
    box.addEventListener("change", () => { if (box.checked) m.hand.add(card); else m.hand.delete(card); commit(); });
    hand.append(h("label", { class: "editor-field" }, box, ` ${name}`));
  }
  const shelf = h("fieldset", { class: "editor-row" }, h("legend", {}, "Blue's shelf (shapes already completed)"));
  for (const shape of config.shapes) {
    shelf.append(select(shape, m.shelf[shape] || "", [["", "—"], ["gold", "Gold"], ["steel", "Steel"]],
      (v) => { if (v) m.shelf[shape] = v; else delete m.shelf[shape]; commit(); }, { "data-shape": shape }));
  }
  const goalArg = m.goalKind === "unload"
    ? select("Shape", m.goalArg, config.shapes.map((s) => [s, s]), (v) => { m.goalArg = v; commit(); }, { "data-field": "goal-shape" })
    : number(m.goalKind === "score" ? "Points" : "AppCons", Number(m.goalArg) || 1, 1, 99, (v) => { m.goalArg = String(v); commit(); }, { "data-field": "goal-amount" });
  const goal = h("fieldset", { class: "editor-row" }, h("legend", {}, "Goal and turn limit"),
    select("Goal", m.goalKind, [["unload", "Unload a shape"], ["score", "Score points"], ["appcons", "Unload AppCons"]],
      (v) => { m.goalKind = v; m.goalArg = v === "unload" ? "I" : "1"; commit(); }, { "data-field": "goal-kind" }),
    goalArg,
    number("Turn limit", m.limit, 1, 4, (v) => { m.limit = v; commit(); }, { "data-field": "limit" }));
  const plan = h("p", { class: "editor-help" },
    "The week: ", config.schedule.map((d) => `${d.day.slice(0, 3)} ${d.size}×${d.size} in ${d.limits.join("–")}${d.needs_card ? " (needs a card)" : ""}`).join(" · "),
    ". Orange never moves and holds no cards.");
  root.append(h("div", { class: "editor-board" }, grid, h("div", { class: "editor-side" }, top, hand, shelf, goal, plan)), note);
}

text.addEventListener("input", () => {
  const parsed = parse(text.value);
  if (typeof parsed === "string") {
    note.textContent = `The text does not parse yet (${parsed}); the board shows the last good record.`;
    return;
  }
  model = parsed;
  render();
  note.textContent = "Redrawn from the text.";
});

render();
