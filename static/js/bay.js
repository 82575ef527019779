// Draws a Cargo Bay as a grid of cells. Pure DOM; the live board will reuse it.
const CELL_CLASSES = { B: "core-blue", O: "core-orange", x: "empty-can", ".": "open" };

export function renderBay(element, rows) {
  const size = rows.length;
  element.style.setProperty("--bay-size", String(size));
  element.replaceChildren();
  const grid = document.createElement("div");
  grid.className = "bay";
  for (const row of rows) {
    for (const cell of row) {
      const div = document.createElement("div");
      div.className = `cell ${CELL_CLASSES[cell] ?? "open"}`;
      grid.append(div);
    }
  }
  element.append(grid);
}
