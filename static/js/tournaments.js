// The "Create a tournament" form (templates/tournaments/index.html): the start is written
// in the member's own time; this sends the browser's offset from UTC with it (minutes, as
// getTimezoneOffset gives them, for the date written). Without script the start is UTC.
function offsetOf(form) {
  const input = form.querySelector("input[name=starts_at]");
  const hidden = form.querySelector("input[name=tz_offset]");
  if (!input || !hidden) return;
  const when = input.value ? new Date(input.value) : new Date();
  hidden.value = String(Number.isNaN(when.getTime()) ? new Date().getTimezoneOffset()
    : when.getTimezoneOffset());
}

// A fresh form's start (the server's: an hour from now, in UTC) is rewritten as an hour
// from now in the member's own time.
function localSoon(form) {
  const input = form.querySelector("input[name=starts_at]");
  if (!input || !form.hasAttribute("data-fresh")) return;
  const soon = new Date(Date.now() + 3_600_000);
  soon.setSeconds(0, 0);
  const pad = (n) => String(n).padStart(2, "0");
  input.value = `${soon.getFullYear()}-${pad(soon.getMonth() + 1)}-${pad(soon.getDate())}T${pad(soon.getHours())}:${pad(soon.getMinutes())}`;
}

for (const form of document.querySelectorAll("form[data-create-tournament]")) {
  localSoon(form);
  offsetOf(form);
  form.addEventListener("submit", () => offsetOf(form));
  form.querySelector("input[name=starts_at]")?.addEventListener("change", () => offsetOf(form));
}

// The system chosen shows its own fields: a Swiss's rounds and pause, an arena's duration (without
// script both show, each saying whose it is).
function systemFields(form) {
  const system = form.querySelector("select[name=system]");
  if (!system) return;
  const show = () => {
    for (const [name, when] of [["rounds", "swiss"], ["round_pause", "swiss"], ["duration", "arena"]]) {
      const field = form.querySelector(`[name=${name}]`)?.closest(".field");
      if (field) field.hidden = system.value !== when;
    }
  };
  system.addEventListener("change", show);
  show();
}

for (const form of document.querySelectorAll("form[data-create-tournament]")) systemFields(form);
