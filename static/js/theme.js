// The header's theme switch (cargosite/theme.py). Without this module the switch is a form
// that posts the other theme and reloads; with it a click switches at once and writes the
// same `theme` cookie the server reads, so the next page arrives in that theme.
const COOKIE_AGE = 365 * 24 * 3600;
const prefersLight = () => window.matchMedia?.("(prefers-color-scheme: light)").matches;

export function currentTheme() {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === "light" || chosen === "dark") return chosen;
  return prefersLight() ? "light" : "dark";
}

function label(button) {
  const next = currentTheme() === "dark" ? "light" : "dark";
  button.value = next;
  const text = button.querySelector("[data-theme-label]");
  if (text) text.textContent = `Switch to ${next} theme`;
  button.title = `Switch to ${next} theme`;
}

export function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  const meta = document.querySelector('meta[name="color-scheme"]');
  if (meta) meta.content = theme;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `theme=${theme}; Path=/; Max-Age=${COOKIE_AGE}; SameSite=Lax${secure}`;
  document.dispatchEvent(new CustomEvent("themechange", { detail: { theme } }));
}

export function startThemeSwitch() {
  for (const button of document.querySelectorAll("[data-theme-switch]")) {
    label(button);
    button.addEventListener("click", (event) => {
      event.preventDefault();
      setTheme(currentTheme() === "dark" ? "light" : "dark");
      for (const other of document.querySelectorAll("[data-theme-switch]")) label(other);
    });
  }
  // Following the system: keep the switch's words right if the system changes.
  window.matchMedia?.("(prefers-color-scheme: light)").addEventListener?.("change", () => {
    for (const button of document.querySelectorAll("[data-theme-switch]")) label(button);
  });
}
