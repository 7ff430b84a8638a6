"""The optional rules a campaign may turn on, declared once (campaigns, forms and the battle
log read this list).

* ``challenges`` — Desafíos (Personajes y combate › Desafíos): heroes in a combat challenge
  each other at the start of the close-combat phase; the battle log takes the challenge entries.
* ``flee_pursuit`` — Huida y persecución (the mass-battle rule of fleeing units and their
  pursuers), offered to the checks' page and API.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine.i18n import gettext_noop as _


@dataclass(frozen=True)
class OptionalRule:
    """``key`` (stored on the campaign), ``label`` and ``help`` (English msgids)."""

    key: str
    label: str
    help: str


CHALLENGES = "challenges"
FLEE_PURSUIT = "flee_pursuit"

OPTIONAL_RULES: tuple[OptionalRule, ...] = (
    OptionalRule(
        CHALLENGES,
        _("Challenges"),
        _("Heroes in a combat may challenge each other before any blow is struck."),
    ),
    OptionalRule(
        FLEE_PURSUIT,
        _("Flee and pursuit"),
        _("Fleeing warriors run and their pursuers chase them (5D6 or 8D6 cm)."),
    ),
)
OPTIONAL_RULE_KEYS: tuple[str, ...] = tuple(rule.key for rule in OPTIONAL_RULES)
