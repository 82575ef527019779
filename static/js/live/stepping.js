// A replay's stepping, the same for every game: the buttons of
// templates/games/_replay_controls.html (first, previous, next, last) and the arrow keys,
// Home and End. `go(k)` shows step k; `at()` is the step shown now; `last` the last step.

export function bindStepping(root, go, at, last) {
  const $ = (selector) => root.querySelector(selector);
  $("[data-first]").addEventListener("click", () => go(0));
  $("[data-prev]").addEventListener("click", () => go(at() - 1));
  $("[data-next]").addEventListener("click", () => go(at() + 1));
  $("[data-last]").addEventListener("click", () => go(last));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, textarea, select")) return;
    const target = { ArrowLeft: at() - 1, ArrowRight: at() + 1, Home: 0, End: last }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    go(target);
  });
}
