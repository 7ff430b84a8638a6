"""The server-side SVG rating chart."""

from battles.charts import Series, line_chart_svg


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
