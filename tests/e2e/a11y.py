"""Helpers for the page audits: axe-core injection, sideways scroll, and language leaks in the
visible text.

axe-core comes from npm: ``.ci/run`` installs it into ``.ci/node`` (``npm install --no-save
--prefix .ci/node axe-core@4``). Outside CI a missing copy skips with the reason; in CI it fails.
"""

import os
import re
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import IN_CI, ROOT

AXE_JS = Path(os.environ.get("AXE_JS") or ROOT / ".ci/node/node_modules/axe-core/axe.min.js")
BLOCKING_IMPACTS = {"serious", "critical"}

# English UI words that betray an untranslated string on a Spanish page. Whole words, case as
# written; none is a game term or a name in the content pack or in the seeded data.
ENGLISH_WORDS = [
    "the",
    "and",
    "Save",
    "Delete",
    "Hire",
    "Buy",
    "Sell",
    "Dismiss",
    "Warband",
    "Warbands",
    "Campaign",
    "Campaigns",
    "Round",
    "Settings",
    "Log out",
    "Sign in",
    "Profile",
    "Notifications",
    "Standings",
    "Cancel",
    "Close",
    "Treasury",
    "Menu",
]
# Spanish-only words that betray an untranslated string on an English page.
SPANISH_WORDS = [
    "Guardar",
    "Borrar",
    "Contratar",
    "Comprar",
    "Vender",
    "Banda",
    "Bandas",
    "Campaña",
    "Campañas",
    "Ronda",
    "Cerrar sesión",
    "Clasificación",
    "Perfil",
    "Avisos",
    "Cancelar",
    "Tesorería",
    "Menú",
    "las",
    "los",
]
# Text that may hold those words legitimately: the product name and the game's own terms (the
# seeded names are added by the test).
ALLOWED = ["Annúminas", "Hoja de Control de Banda"]


@cache
def axe_source() -> str:
    if not AXE_JS.exists():
        message = f"axe-core is missing at {AXE_JS} (npm install --prefix .ci/node axe-core@4)"
        if IN_CI:
            pytest.fail(message + ": CI must install it (.ci/run)")
        pytest.skip(message)
    return AXE_JS.read_text(encoding="utf-8")


def axe_violations(page) -> list[str]:
    """Serious and critical axe-core violations on the current page, one line each."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the browser's debugging protocol: an injected <script> would be
        # inline code, which the site's Content-Security-Policy refuses.
        page.evaluate(axe_source())
    results = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ['violations']});
            return r.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                targets: v.nodes.slice(0, 5).map(n => n.target.join(' ')),
                summary: v.nodes.length ? v.nodes[0].failureSummary : '',
            }));
        }"""
    )
    return [
        f"{v['impact']} {v['id']} ({v['help']}) at {v['targets']}: {v['summary']}"
        for v in results
        if v["impact"] in BLOCKING_IMPACTS
    ]


def sideways_scroll(page) -> str | None:
    scroll_width, inner_width = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth]"
    )
    if scroll_width > inner_width:
        return f"page is {scroll_width}px wide in a {inner_width}px window"
    return None


def leaked_words(text: str, words: list[str], allowed: list[str]) -> list[str]:
    """The words of ``words`` (whole, case-sensitive) in ``text`` once the allowed names are out,
    each with a little context."""
    for name in sorted(allowed, key=len, reverse=True):
        text = text.replace(name, " ")
    found = []
    for word in words:
        for match in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text):
            start, end = max(0, match.start() - 30), min(len(text), match.end() + 30)
            found.append(f"{word!r} in …{' '.join(text[start:end].split())}…")
            break
    return found
