"""The Content-Security-Policy: on every answer, strict, and nothing in the pages breaks it.

The browser test (tests/e2e/test_csp_browser.py) loads the pages and listens for violations;
these tests guard the sources: no template carries an inline script, an inline event handler,
an ``hx-on`` attribute, a ``style`` attribute or a ``<style>`` block (the PDF's stylesheet is
inlined for the PDF renderer only, never sent to a browser).
"""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from battles.campaigns.charts import Series, chart_legend, line_chart_svg
from tests.battles.factories import *  # noqa: F403 - league fixtures

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# The PDF renderer gets its stylesheet inline (it fetches nothing); browsers get a <link>.
PDF_ONLY_STYLE = ("warbands/print.html", "{% if pdf %}<style>{{ print_css|safe }}</style>")

INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>"), "script"),
    (re.compile(r"\son[a-z]+\s*=", re.IGNORECASE), "event handler"),
    (re.compile(r"\shx-on[:-]"), "hx-on"),
    (re.compile(r"\sstyle\s*="), "style attribute"),
    (re.compile(r"<style[\s>]"), "<style>"),
]


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {
        directive.split()[0]: directive.split()[1:]
        for directive in (part.strip() for part in header.split(";"))
        if directive
    }


@pytest.mark.parametrize(
    "path", sorted(str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*.html"))
)
def test_no_template_carries_inline_code_or_style(path):
    text = (TEMPLATES / path).read_text()
    if path == PDF_ONLY_STYLE[0]:
        assert PDF_ONLY_STYLE[1] in text
        text = text.replace(PDF_ONLY_STYLE[1], "")
    found = [(what, match.group(0)) for pattern, what in INLINE for match in pattern.finditer(text)]
    assert found == [], f"{path}: {found}"


def test_the_standings_charts_draw_without_style_attributes():
    series = [Series(f"Banda {n}", [10 * n, 12 * n]) for n in range(1, 10)]
    markup = line_chart_svg(["1", "2"], series, title="Valor") + chart_legend(series)
    assert "style=" not in markup
    assert markup.count("<svg") == 1 + len(series)  # the chart and one swatch per warband


def test_htmx_is_configured_for_the_policy():
    """htmx injects a <style> for its indicators and evaluates hx-on unless told not to."""
    base = (TEMPLATES / "base.html").read_text()
    config = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", base)
    assert config is not None
    assert json.loads(config.group(1)) == {
        "includeIndicatorStyles": False,
        "allowEval": False,
        "allowScriptTags": False,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    ["/", "/accounts/login/", "/campaigns/", "/rules/odds/", "/api/v1/catalogue/equipment/"],
)
def test_every_answer_carries_the_strict_policy(client, league, path):
    response = client.get(path)
    assert response.status_code == 200
    policy = _policy(response)
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]


class _Scripts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.inline = 0
        self.sources: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            source = dict(attrs).get("src")
            if source:
                self.sources.append(source)
            else:
                self.inline += 1


@pytest.mark.django_db
def test_the_api_docs_load_their_script_from_a_url(client):
    page = client.get("/api/v1/docs/")
    assert page.status_code == 200
    scripts = _Scripts()
    scripts.feed(page.content.decode())
    assert scripts.inline == 0
    starter = next(src for src in scripts.sources if "script" in src)
    assert client.get(starter.replace("&amp;", "&")).status_code == 200
    assert "'unsafe-inline'" not in page["Content-Security-Policy"]


@pytest.mark.django_db
def test_redoc_which_needs_inline_styles_and_a_cdn_leads_to_the_docs(client):
    answer = client.get("/api/v1/redoc/")
    assert answer.status_code == 301
    assert answer["Location"] == "/api/v1/docs/"
