"""The server-side SVG rating chart."""

import re

from battles.campaigns.charts import Series, chart_legend, line_chart_svg


def test_chart_draws_one_line_per_warband_and_escapes_names():
    svg = line_chart_svg(
        ["R1", "R2", "Now"],
        [
            Series("<script>", [35, 48, 61]),
            Series("Cuervos", [35, None, 44]),
            Series("x", [None] * 3),
        ],
        title="Rating",
    )
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert svg.count("<polyline") == 2
    assert svg.count("<circle") == 5


def test_empty_chart_is_still_valid_svg():
    assert line_chart_svg([], [], title="t").endswith("</svg>")


def test_the_legend_is_html_in_the_series_order_with_names_escaped():
    """The legend sits beside the drawing as HTML, so a phone shows it at the page's size."""
    series = [Series("<b>Lobos</b>", [1]), *(Series(f"Banda {n}", [n]) for n in range(1, 9))]
    legend = chart_legend(series)
    assert legend.startswith('<ul class="chart-legend">') and legend.endswith("</ul>")
    assert "<b>" not in legend and "&lt;b&gt;Lobos&lt;/b&gt;" in legend
    names = re.findall(r'data-warband="([^"]*)"', legend)
    assert names == ["&lt;b&gt;Lobos&lt;/b&gt;"] + [f"Banda {n}" for n in range(1, 9)]
    assert legend.count("solid") == 8 and legend.count("dashed") == 1  # the ninth line is dashed
