"""Rating history charts drawn on the server, readable without JavaScript: the line is an
SVG polyline in a fixed viewBox stretched to the chart's box (strokes do not scale), and
the labels and markers are HTML placed by percentages, so their text stays readable at any
width. From a list of ratings, oldest first (the start rating, then after each game). The
template templates/accounts/_chart.html draws what `line_chart` returns."""

from __future__ import annotations

import math
from dataclasses import dataclass

WIDTH, HEIGHT = 600, 200  # the viewBox
PAD = 10  # above the top line and below the bottom one, in viewBox units
MAX_POINTS = 300  # a longer history is sampled evenly (the ends and the peak kept)


@dataclass(frozen=True)
class Mark:
    x: float  # percent of the width
    y: float  # percent of the height
    rating: int
    vx: float = 0.0  # the same point in viewBox units
    vy: float = 0.0


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # the polyline's "x,y x,y ..." in viewBox units
    grid: list[tuple[float, float, int]]  # each horizontal line: y (viewBox), y %, rating
    peak: Mark
    last: Mark
    games: int
    summary: str  # the chart in words, for screen readers


def _sample(values: list[int]) -> list[tuple[int, int]]:
    """(index, value) pairs: every value, or an even sample keeping the ends and the peak."""
    n = len(values)
    if n <= MAX_POINTS:
        return list(enumerate(values))
    step = (n - 1) / (MAX_POINTS - 1)
    keep = {round(i * step) for i in range(MAX_POINTS)} | {values.index(max(values))}
    return [(i, values[i]) for i in sorted(keep)]


def _nice_step(span: int) -> int:
    """A round step for about four grid lines over `span` rating points."""
    raw = max(span / 4, 1)
    power = 10 ** math.floor(math.log10(raw))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def line_chart(ratings: list[int], label: str) -> Chart | None:
    """The chart of a rating's history (the start rating first), or None before a game."""
    if len(ratings) < 2:
        return None
    low, high = min(ratings), max(ratings)
    step = _nice_step(high - low)
    bottom = math.floor(low / step) * step
    top = max(math.ceil(high / step) * step, bottom + step)
    last_index = len(ratings) - 1

    def x(i: int) -> float:
        return round(WIDTH * i / last_index, 1)

    def y(v: int) -> float:
        return round(PAD + (HEIGHT - 2 * PAD) * (top - v) / (top - bottom), 1)

    def mark(i: int) -> Mark:
        return Mark(round(100 * x(i) / WIDTH, 2), round(100 * y(ratings[i]) / HEIGHT, 2),
                    ratings[i], x(i), y(ratings[i]))

    points = " ".join(f"{x(i)},{y(v)}" for i, v in _sample(ratings))
    grid = [(y(v), round(100 * y(v) / HEIGHT, 2), v) for v in range(bottom, top + 1, step)]
    summary = (f"{label}: {last_index} rated game{'s' if last_index != 1 else ''}, from "
               f"{ratings[0]} to {ratings[-1]}, peak {high}, lowest {low}.")
    return Chart(WIDTH, HEIGHT, points, grid, mark(ratings.index(high)), mark(last_index),
                 last_index, summary)
