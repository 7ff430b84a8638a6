"""Campaign size presets: guidelines by warband rating band, to start a campaign's house rules.

Modelled on the organised-events guideline table of the Warhammer 40,000 FAQ (seed 003: points
limit → detachments, copies of the same datasheet, table size, game length), translated to
warbands: a rating band gives the rating cap, how many copies of one fighter type a warband may
field, the starting treasury, the table size and how long a game takes. The organiser starts from
a preset and adjusts any value; the campaign keeps its own values, not a link to the preset.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Preset:
    slug: str
    name: str
    rating_band: str
    rating_cap: int | None
    max_fighter_type_copies: int | None
    starting_treasury: int
    table_size: str
    game_length: str

    def house_rules(self) -> dict:
        values = asdict(self)
        for key in ("slug", "name", "rating_band"):
            values.pop(key)
        return values


PRESETS: tuple[Preset, ...] = (
    Preset("skirmish", _("Skirmish"), _("up to 150"), 150, 2, 400, "90 × 90 cm", _("up to 1 hour")),
    Preset("raid", _("Raid"), _("151–250"), 250, 3, 500, "120 × 120 cm", _("1 to 2 hours")),
    Preset(
        "war",
        _("War in the ruins"),
        _("251–400"),
        400,
        4,
        600,
        "180 × 120 cm",
        _("2 to 3 hours"),
    ),
    Preset(
        "legends",
        _("Legends"),
        _("401 or more"),
        None,
        5,
        700,
        "240 × 120 cm",
        _("3 hours or more"),
    ),
)
PRESETS_BY_SLUG = {preset.slug: preset for preset in PRESETS}
DEFAULT_PRESET = "raid"
PRESET_CHOICES = [(p.slug, p.name) for p in PRESETS]


def preset_house_rules(slug: str) -> dict:
    return PRESETS_BY_SLUG[slug].house_rules()
