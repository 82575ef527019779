// The Weekly Puzzles' week page: a guest's day states from this browser's storage, and,
// for a signed-in member, the offer to merge a browser's guest progress into the account
// (review what would change first; nothing is merged without the member's click).
import { el } from "../live/dom.js";
import { clearGuest, guestEntries, guestEntry, postJson } from "./storage.js";

const root = document.querySelector("[data-puzzles-week]");
const member = root?.dataset.member === "1";

function guestStates() {
  for (const row of root.querySelectorAll("[data-puzzle]")) {
    const entry = guestEntry(row.dataset.puzzle);
    if (!entry) continue;
    // the server's words (puzzles/progress.py state_word): "tried" needs an attempt
    const word = entry.proof ? "solved" : entry.attempts ? "tried" : entry.shown ? "seen" : null;
    if (!word) continue;
    const badge = row.querySelector("[data-state]");
    badge.textContent = word;
    badge.className = `day-state state-${word}`;
  }
}

function mergeOffer() {
  const entries = guestEntries();
  const panel = root.querySelector("[data-merge]");
  if (!entries.length || window.sessionStorage.getItem("cargo.puzzles.merge-later")) return;
  panel.hidden = false;
  const text = panel.querySelector("[data-merge-text]");
  const list = panel.querySelector("[data-merge-changes]");
  const review = panel.querySelector("[data-merge-review]");
  const apply = panel.querySelector("[data-merge-apply]");
  const url = root.dataset.mergeUrl;
  const csrf = root.dataset.csrf;
  let expect = null;
  text.textContent = `This browser holds Weekly Puzzles progress on ${entries.length} puzzle${entries.length === 1 ? "" : "s"} from before you signed in.`;
  review.addEventListener("click", async () => {
    const { ok, data } = await postJson(url, { entries }, csrf);
    list.replaceChildren();
    if (!ok) {
      list.append(el("p", "error", data.error));
      return;
    }
    expect = data.changes;
    if (!data.changes.length) {
      list.append(el("p", "", "Merging would change nothing in your account."));
    } else {
      list.append(el("p", "", "Merging would make these changes to your account:"));
      const ul = el("ul", "merge-list");
      for (const change of data.changes) ul.append(el("li", "", change.words));
      list.append(ul);
    }
    if (data.refused.length) {
      const ul = el("ul", "merge-refused");
      for (const why of data.refused) ul.append(el("li", "", why));
      list.append(el("p", "", "Left out:"), ul);
    }
    apply.hidden = !data.changes.length;
    review.hidden = true;
  });
  apply.addEventListener("click", async () => {
    const { ok, data } = await postJson(url, { entries, apply: true, expect }, csrf);
    if (!ok) {
      list.replaceChildren(el("p", "error", data.error));
      review.hidden = false;
      apply.hidden = true;
      return;
    }
    clearGuest();
    window.location.reload(); // the server left "Merged …" for the next page
  });
  panel.querySelector("[data-merge-later]").addEventListener("click", () => {
    window.sessionStorage.setItem("cargo.puzzles.merge-later", "1");
    panel.hidden = true;
  });
  panel.querySelector("[data-merge-discard]").addEventListener("click", () => {
    if (!window.confirm("Forget this browser's guest puzzle progress? Your account is not changed.")) return;
    clearGuest();
    panel.hidden = true;
  });
}

if (root) {
  if (member) mergeOffer();
  else guestStates();
}
