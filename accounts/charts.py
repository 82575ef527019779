"""Rating history charts drawn on the server: the geometry of an SVG line chart (readable
without JavaScript), from a list of ratings, oldest first. The template
(templates/accounts/_chart.html) draws what this returns."""

from __future__ import annotations

import math
from dataclasses import dataclass

WIDTH, HEIGHT = 600, 180
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 10, 12, 22
MAX_POINTS = 300  # a longer history is sampled evenly (first, last and the peak kept)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # the polyline's "x,y x,y ..."
    grid: list[tuple[float, int]]  # (y, rating) of each horizontal line
    peak: tuple[float, float, int]  # x, y, rating
    last: tuple[float, float, int]
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
    raw = max(span / 4, 1)
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def line_chart(ratings: list[int], label: str) -> Chart | None:
    """The chart of a rating's history (the start rating first), or None before any game."""
    if len(ratings) < 2:
        return None
    low, high = min(ratings), max(ratings)
    step = _nice_step(high - low)
    bottom = math.floor(low / step) * step
    top = max(math.ceil(high / step) * step, bottom + step)
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    last_index = len(ratings) - 1

    def x(i: int) -> float:
        return round(PAD_LEFT + inner_w * i / last_index, 1)

    def y(v: int) -> float:
        return round(PAD_TOP + inner_h * (top - v) / (top - bottom), 1)

    points = " ".join(f"{x(i)},{y(v)}" for i, v in _sample(ratings))
    grid = [(y(v), v) for v in range(bottom, top + 1, step)]
    peak_i = ratings.index(high)
    games = last_index
    summary = (f"{label}: {games} rated game{'s' if games != 1 else ''}, from {ratings[0]} to "
               f"{ratings[-1]}, peak {high}, lowest {low}.")
    return Chart(WIDTH, HEIGHT, points, grid, (x(peak_i), y(high), high),
                 (x(last_index), y(ratings[-1]), ratings[-1]), games, summary)
