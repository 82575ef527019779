// "Play against bots" (templates/games/_bots_form.html, docs/bot-games.md), made tidier with
// script: only the bots' rows the chosen number of players uses are shown, and the seats
// past it cannot be chosen. Without script every row is there and the server ignores the
// rows past the count (and refuses a seat past it, in words).
function follow(form) {
  const players = form.querySelectorAll('input[name="players"]');
  const seats = [...form.querySelectorAll('input[name="seat"]')]; // Random, then seat by seat
  const update = () => {
    const count = Number(form.querySelector('input[name="players"]:checked')?.value || 0);
    form.querySelectorAll("[data-from-players]").forEach((row) => {
      row.hidden = Number(row.dataset.fromPlayers) > count;
    });
    seats.forEach((radio, i) => {
      radio.disabled = i > count;
      radio.closest("label")?.toggleAttribute("hidden", i > count);
      if (radio.disabled && radio.checked) seats[0].checked = true;
    });
  };
  players.forEach((radio) => radio.addEventListener("change", update));
  update();
}

document.querySelectorAll("form[data-bots-form]").forEach(follow);
