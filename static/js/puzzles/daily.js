// The Daily Challenge page: the countdown to midnight Pacific, shown in the player's own
// time zone, and the Copy buttons of the share texts. The server decides everything else.

const countdown = document.querySelector("[data-countdown]");
if (countdown) {
  const ends = new Date(countdown.dataset.ends);
  const local = document.querySelector("[data-ends-local]");
  if (local) {
    const time = ends.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
    local.textContent = `(ends at ${time} your time, midnight Pacific)`;
  }
  const two = (n) => String(n).padStart(2, "0");
  const tick = () => {
    const left = Math.max(0, Math.floor((ends - Date.now()) / 1000));
    if (left === 0) {
      countdown.textContent = "The day has ended: reload for the new challenge";
      return false;
    }
    const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    countdown.textContent = `${h}:${two(m)}:${two(s)} left`;
    return true;
  };
  if (tick()) {
    const timer = setInterval(() => { if (!tick()) clearInterval(timer); }, 1000);
  }
}

for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", async () => {
    const text = button.parentElement.querySelector("[data-share]");
    try {
      await navigator.clipboard.writeText(text.value);
    } catch {
      text.select();
      document.execCommand("copy");
    }
    button.textContent = "Copied";
  });
}
