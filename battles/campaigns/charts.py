"""Line charts of the standings page (warband ratings, points over the rounds), drawn
server-side as inline SVG.

Pure: takes labels and series of numbers (``None`` where a warband has no value for a round)
and returns SVG markup with escaped text, so the standings page needs no charting script. The
series come in the standings' order (the campaign's own scoring), and the legend keeps it. The
legend is HTML beside the drawing (``chart_legend``), so it reads at the page's own size on a
phone, where the drawing is scaled down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

# Distinct, colour-blind-friendly line colours (Okabe–Ito), repeated with dashes past eight.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")


@dataclass(frozen=True)
class Series:
    label: str
    values: Sequence[int | None]


def _nice_bounds(low: int, high: int) -> tuple[int, int, int]:
    if low == high:
        low, high = low - 10, high + 10
    span = high - low
    step = next((s for s in (5, 10, 20, 25, 50, 100, 200, 250, 500) if span / s <= 6), 1000)
    return (low // step) * step, -(-high // step) * step, step


def line_chart_svg(
    x_labels: Sequence[str],
    series: Sequence[Series],
    *,
    title: str,
    chart_id: str = "rating-chart",
    width: int = 560,
    height: int = 280,
) -> str:
    """One line per series (its legend is ``chart_legend``); ``chart_id`` names the chart's
    class and title (two charts on one page)."""
    left, right, top, bottom = 44, 34, 16, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for s in series for v in s.values if v is not None]
    chart_id = escape(chart_id)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'class="{chart_id}" aria-labelledby="{chart_id}-title">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
    ]
    if not values or not x_labels:
        parts.append("</svg>")
        return "".join(parts)
    low, high, step = _nice_bounds(min(values), max(values))

    def x_at(index: int) -> float:
        if len(x_labels) == 1:
            return left + plot_w / 2
        return left + plot_w * index / (len(x_labels) - 1)

    def y_at(value: float) -> float:
        return top + plot_h * (1 - (value - low) / (high - low))

    for tick in range(low, high + 1, step):
        y = y_at(tick)
        parts.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{left - 6}" y="{y + 5:.1f}" text-anchor="end" font-size="15">{tick}</text>'
        )
    for index, label in enumerate(x_labels):
        parts.append(
            f'<text x="{x_at(index):.1f}" y="{height - bottom + 24}" text-anchor="middle" '
            f'font-size="15">{escape(label)}</text>'
        )
    for number, line in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        dash = ' stroke-dasharray="6 3"' if number >= len(COLOURS) else ""
        points = [(x_at(i), y_at(v)) for i, v in enumerate(line.values) if v is not None]
        # The warband's name as the line's tooltip (the legend beside the drawing names it too).
        name = escape(line.label)
        parts.append(f'<g class="series" data-series="{number}"><title>{name}</title>')
        if len(points) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            parts.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{path}"/>'
            )
        for x, y in points:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def chart_legend(series: Sequence[Series]) -> str:
    """The chart's legend as an HTML list in the series' order: each warband's colour (dashed
    past eight, as its line) and name. The swatch is a small SVG line, coloured by its
    attributes: the site's Content-Security-Policy allows no inline style."""
    items = []
    for number, line in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        kind = "dashed" if number >= len(COLOURS) else "solid"
        dash = ' stroke-dasharray="6 3"' if kind == "dashed" else ""
        label = escape(line.label)
        items.append(
            f'<li data-warband="{label}"><svg class="swatch swatch-{kind}" aria-hidden="true" '
            f'viewBox="0 0 24 4" width="24" height="4"><line x1="0" y1="2" x2="24" y2="2" '
            f'stroke="{colour}" stroke-width="4"{dash}/></svg>{label}</li>'
        )
    return f'<ul class="chart-legend">{"".join(items)}</ul>'
