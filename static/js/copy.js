// Copy buttons: `<button data-copy="text">` copies its text, `<button data-copy-from="#id">`
// the value (or text) of that element, and `<button data-copy-url="/path">` what that URL
// answers (the game record). The button says "Copied" for a moment, and a status line
// (`data-copy-status` inside the same parent, if any) says it for screen readers.
const RESET_MS = 2000;

async function textFor(button) {
  if (button.dataset.copy) return button.dataset.copy;
  if (button.dataset.copyFrom) {
    const source = document.querySelector(button.dataset.copyFrom);
    return source ? source.value ?? source.textContent : "";
  }
  if (button.dataset.copyUrl) {
    const response = await fetch(button.dataset.copyUrl, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.text();
  }
  return "";
}

async function copy(button) {
  const status = button.parentElement?.querySelector("[data-copy-status]");
  const original = button.dataset.label || button.textContent;
  button.dataset.label = original;
  let said;
  try {
    const text = await textFor(button);
    await navigator.clipboard.writeText(text);
    said = "Copied";
  } catch {
    said = "Could not copy";
  }
  button.textContent = said;
  if (status) status.textContent = `${said}.`;
  clearTimeout(button.resetTimer);
  button.resetTimer = setTimeout(() => {
    button.textContent = original;
  }, RESET_MS);
}

export function startCopyButtons(root = document) {
  for (const button of root.querySelectorAll("[data-copy], [data-copy-from], [data-copy-url]")) {
    button.hidden = false; // without this module the buttons stay hidden
    button.addEventListener("click", () => copy(button));
  }
}
