"""Campaign size presets: guidelines by warband rating band, to start a campaign's house rules.

Modelled on the organised-events guideline table of the Warhammer 40,000 FAQ (points limit →
detachments, copies of the same datasheet, table size, game length), translated to warbands: a
rating band gives the rating cap, how many copies of one fighter type and how many warriors a
warband may field, the starting treasury, the table size and how long a game takes. The organiser
starts from a preset and adjusts any value; the campaign keeps its own values, not a link to the
preset. Each setting declares its value for every preset (``league_settings``); this module names
the presets.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Preset:
    slug: str
    name: Promise
    rating_band: Promise


PRESETS: tuple[Preset, ...] = (
    Preset("skirmish", _("Skirmish"), _("up to 150")),
    Preset("raid", _("Raid"), _("151–250")),
    Preset("war", _("War in the ruins"), _("251–400")),
    Preset("legends", _("Legends"), _("401 or more")),
)
PRESETS_BY_SLUG = {preset.slug: preset for preset in PRESETS}
DEFAULT_PRESET = "raid"
PRESET_CHOICES = [(p.slug, p.name) for p in PRESETS]
