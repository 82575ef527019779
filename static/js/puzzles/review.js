// A puzzle attempt's review (templates/puzzles/review.html): the replay viewer and the marked
// turn, as on a game's review (../cargo-connect/review-marks.js). A guest who sees it has
// seen a solution: unless this browser holds their proof of solving, its storage marks the
// solution as shown, as "Show the solution" does (the server does it for members).
import { mountReview } from "../cargo-connect/review-marks.js";
import { updateGuest } from "./storage.js";

const root = document.getElementById("puzzle-review");
if (root) {
  mountReview(root);
  if ("guestSaw" in root.dataset) {
    updateGuest(Number(root.dataset.puzzle), root.dataset.date, (entry) => {
      if (!entry.proof) entry.shown = true;
    });
  }
}
