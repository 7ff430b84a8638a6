"""Post-battle tables (secuencia posterior a la batalla): injuries, experience, advances,
exploration, selling finds and the warband rating.

Each function takes its table as a parameter (defaults from :mod:`rules.engine.tables`), so a
campaign's content pack can pass its own rows. Results carry machine-readable ``effects`` for the
post-battle services to apply, and ``pending_choices`` where a player must decide (a new skill,
HA or HP…). Rolling again on a table because its text says so ("re-roll Dead, Captured and
Multiple injuries", "re-roll if at the racial maximum") makes new rolls; the FAQ's "never
re-roll more than once" governs rule re-rolls (hatred, parry), not these table instructions.

Modules: :mod:`._common` (:class:`TableResult`, validators) · :mod:`.injuries` (serious and
henchman injuries, what an injury may take) · :mod:`.experience` (experience, advances earned,
the warband rating) · :mod:`.advances` (hero and henchman advances) · :mod:`.finds`
(exploration, selling finds, rare items).
"""

from rules.engine.postbattle._common import (
    MAX_TABLE_REROLLS,
    Effect,
    EffectKind,
    TableResult,
    injury_label,
)
from rules.engine.postbattle.advances import (
    RACIAL_MAXIMUM_POLICIES,
    characteristic_advance,
    henchman_advance,
    hero_advance,
)
from rules.engine.postbattle.experience import (
    advances_earned,
    battle_experience,
    underdog_bonus,
    warband_rating,
)
from rules.engine.postbattle.finds import (
    MULTIPLE_NAMES,
    RareItem,
    RareItemsFound,
    exploration,
    rare_items,
    sell_finds,
)
from rules.engine.postbattle.injuries import (
    blindness_retires,
    henchman_injury,
    injury_characteristic_change,
    serious_injury,
)

__all__ = [
    "MAX_TABLE_REROLLS",
    "MULTIPLE_NAMES",
    "RACIAL_MAXIMUM_POLICIES",
    "Effect",
    "EffectKind",
    "RareItem",
    "RareItemsFound",
    "TableResult",
    "advances_earned",
    "battle_experience",
    "blindness_retires",
    "characteristic_advance",
    "exploration",
    "henchman_advance",
    "henchman_injury",
    "hero_advance",
    "injury_characteristic_change",
    "injury_label",
    "rare_items",
    "sell_finds",
    "serious_injury",
    "underdog_bonus",
    "warband_rating",
]
