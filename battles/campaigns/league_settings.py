"""A league's settings, each declared once: its house rules, its scoring and its optional rules.

Every door reads this table (Zulip's ``Realm.property_types`` is the model): the campaign form
and the organisers' admin build their fields from it, the API its serializer (and so the
schema), the campaign page its rules summary, the presets their values, the services their
validation (``house_rules.house_rules_clean``) and the roster checks their enforcement
(``house_rules.check_warband``, at join and on every roster change). Each setting is a column of
``Campaign`` of the same name (the allowed warband types: its many-to-many), so a value is typed,
constrained and kept in the campaign's history.

Adding a house rule: its ``Setting`` below, its roster check in ``setting_checks`` (or the
function that applies it, ``applied_by``), its column on ``Campaign`` with a migration, its
texts in the catalogue, and a test. ``tests/battles/test_league_settings.py`` walks the table and
fails when a door lacks one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from battles.campaigns import setting_checks as checks
from battles.campaigns.standings import DEFAULT_TIE_BREAKERS, TIE_BREAKER_CHOICES
from rules.engine.optional_rules import OPTIONAL_RULES as ENGINE_OPTIONAL_RULES

POINTS_RANGE = (-99, 99)


class Kind(StrEnum):
    NUMBER = "number"  # a whole number within bounds; "no limit" (None) where allowed
    TEXT = "text"  # a short text
    CHOICES = "choices"  # some of a fixed list
    ORDER = "order"  # some of a fixed list, in order
    TABLES = "tables"  # campaign table overrides, JSON
    SWORDS = "swords"  # hired swords forbidden: "all" or their slugs
    TYPES = "types"  # warband types allowed: a many-to-many, none meaning all
    FLAG = "flag"  # yes or no


@dataclass(frozen=True)
class Group:
    """Settings shown together: one fieldset of the form, and one line of the summary when
    ``together`` (each setting by its ``short`` name)."""

    name: str
    legend: Promise | str = ""
    help: Promise | str = ""
    grid: bool = False
    together: bool = False

    @property
    def testid(self) -> str:
        return self.name.replace("_", "-")


LIMITS = Group("limits", grid=True)
POINTS = Group("points", gettext_lazy("Points"), grid=True, together=True)
BONUS = Group("bonus", gettext_lazy("Bonus points"), grid=True, together=True)
TIE_BREAKERS = Group(
    "tie_breakers",
    gettext_lazy("Tie-breakers, in order"),
    gettext_lazy(
        "Warbands level on points are separated by the first tie-breaker, those still level "
        "by the second, and so on. None chosen: opponents' points, enemies put out of action, "
        "warband rating."
    ),
    grid=True,
)
TABLE = Group("table", gettext_lazy("Table and game length"), grid=True, together=True)
ROSTERS = Group("rosters", gettext_lazy("Warbands and rules"))
GROUPS = (LIMITS, POINTS, BONUS, TIE_BREAKERS, TABLE, ROSTERS)
SCORING_GROUPS = (POINTS, BONUS, TIE_BREAKERS)


@dataclass(frozen=True)
class OptionalRule:
    """A rule of the game a campaign may switch on; the engine declares the keys it knows."""

    key: str
    label: Promise | str
    help: Promise | str = ""


# The engine's list, in its order, with the engine's words in the reader's language.
OPTIONAL_RULES = tuple(
    OptionalRule(rule.key, gettext_lazy(rule.label), gettext_lazy(rule.help))
    for rule in ENGINE_OPTIONAL_RULES
)


def optional_rule_choices() -> list[tuple[str, Promise | str]]:
    return [(rule.key, rule.label) for rule in OPTIONAL_RULES]


@dataclass(frozen=True)
class Setting:
    key: str  # the column of ``Campaign``, the form's field, the API's field
    kind: Kind
    label: Promise | str
    group: Group
    help: Promise | str = ""
    default: Any = None
    bounds: tuple[int, int] | None = None  # NUMBER: lowest and highest
    no_limit: bool = False  # NUMBER: ``None`` allowed, meaning no limit
    no_limit_label: Promise | str = ""  # the form's checkbox that sets no limit
    none_text: Promise | str = ""  # what the summary says for no limit (or nothing chosen)
    max_length: int | None = None  # TEXT
    presets: Mapping[str, Any] = field(default_factory=dict)  # preset slug → value
    error: Promise | str = ""  # NUMBER: the message for a value out of bounds (else derived)
    short: Promise | str = ""  # its part of its group's line in the summary, around %(value)s
    unit: str = ""
    choices: Callable[[], Sequence[tuple[str, Promise | str]]] | None = None
    clean: Callable[[Setting, Any], Any] | None = None  # else the kind's
    check: checks.RosterCheck | None = None  # enforced against a roster
    needs: frozenset[str] = frozenset()  # the roster facts ``check`` reads
    applied_by: str = ""  # else: the function that applies it ("module.name")
    guidance: bool = False  # else: shown to the players, never enforced

    @property
    def testid(self) -> str:
        return self.key.replace("_", "-")

    def cleaner(self) -> Callable[[Setting, Any], Any]:
        return self.clean or KIND_CLEANERS[self.kind]

    def bounds_message(self) -> str:
        bounds = {"low": self.bounds[0], "high": self.bounds[1], "setting": self.label}
        if self.error:
            return str(self.error) % bounds
        if self.no_limit:
            return (
                _("%(setting)s: a whole number from %(low)s to %(high)s, or empty for no limit.")
                % bounds
            )
        return _("%(setting)s: a whole number from %(low)s to %(high)s.") % bounds

    def choices_message(self, known: Sequence[str]) -> str:
        values = {"setting": self.label, "rules": ", ".join(known)}
        if self.error:
            return str(self.error) % values
        return _("%(setting)s: choose from %(rules)s.") % values


KIND_CLEANERS: dict[Kind, Callable[[Setting, Any], Any]] = {
    Kind.NUMBER: checks.number_clean,
    Kind.TEXT: checks.text_clean,
    Kind.CHOICES: checks.choices_clean,
    Kind.ORDER: checks.tie_breakers_clean,
    Kind.TABLES: checks.tables_clean,
    Kind.SWORDS: checks.hired_swords_clean,
    Kind.FLAG: checks.flag_clean,
}


def _points(key: str, label, short, default: int) -> Setting:
    return Setting(
        key,
        Kind.NUMBER,
        label,
        POINTS,
        default=default,
        bounds=POINTS_RANGE,
        error=gettext_lazy("Points must be a whole number from %(low)s to %(high)s."),
        short=short,
        applied_by="battles.campaigns.scoring.scheme_of",
    )


def _bonus(key: str, label, short) -> Setting:
    return Setting(
        key,
        Kind.NUMBER,
        label,
        BONUS,
        default=0,
        bounds=POINTS_RANGE,
        error=gettext_lazy("Points must be a whole number from %(low)s to %(high)s."),
        short=short,
        applied_by="battles.campaigns.scoring.scheme_of",
    )


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "starting_treasury",
        Kind.NUMBER,
        gettext_lazy("Starting treasury"),
        LIMITS,
        help=gettext_lazy("Coronas (co) a warband starts the campaign with."),
        default=500,
        bounds=(0, 100_000),
        presets={"skirmish": 400, "raid": 500, "war": 600, "legends": 700},
        error=gettext_lazy(
            "The starting treasury must be a whole number of coronas from %(low)s to %(high)s."
        ),
        unit="co",
        applied_by="battles.campaigns.services.membership._apply_starting_treasury",
    ),
    Setting(
        "rating_cap",
        Kind.NUMBER,
        gettext_lazy("Warband rating cap"),
        LIMITS,
        bounds=(1, 100_000),
        no_limit=True,
        no_limit_label=gettext_lazy("No rating cap"),
        none_text=gettext_lazy("none"),
        presets={"skirmish": 150, "raid": 250, "war": 400, "legends": None},
        error=gettext_lazy(
            "The rating cap must be a whole number from %(low)s to %(high)s, or empty for no cap."
        ),
        check=checks.rating_cap_check,
    ),
    Setting(
        "max_fighter_type_copies",
        Kind.NUMBER,
        gettext_lazy("Maximum copies of one fighter type"),
        LIMITS,
        bounds=(1, 99),
        no_limit=True,
        no_limit_label=gettext_lazy("No limit of copies of one fighter type"),
        none_text=gettext_lazy("no limit"),
        presets={"skirmish": 2, "raid": 3, "war": 4, "legends": 5},
        error=gettext_lazy(
            "Allow from %(low)s to %(high)s copies of one fighter type, or leave it empty."
        ),
        check=checks.fighter_type_copies_check,
        needs=frozenset({checks.FIGHTERS}),
    ),
    Setting(
        "max_warriors",
        Kind.NUMBER,
        gettext_lazy("Maximum warriors in a warband"),
        LIMITS,
        help=gettext_lazy(
            "Heroes, henchmen and hired swords together; the warband type's own maximum "
            "still holds."
        ),
        bounds=(1, 99),
        no_limit=True,
        no_limit_label=gettext_lazy("No limit of warriors"),
        none_text=gettext_lazy("no limit"),
        presets={"skirmish": 10, "raid": 12, "war": 15, "legends": None},
        check=checks.max_warriors_check,
        needs=frozenset({checks.FIGHTERS}),
    ),
    _points("points_win", gettext_lazy("Points for a win"), gettext_lazy("win %(value)s"), 3),
    _points("points_draw", gettext_lazy("Points for a draw"), gettext_lazy("draw %(value)s"), 1),
    _points("points_loss", gettext_lazy("Points for a loss"), gettext_lazy("loss %(value)s"), 0),
    _points("points_bye", gettext_lazy("Points for a bye"), gettext_lazy("bye %(value)s"), 3),
    _bonus(
        "points_per_out_of_action",
        gettext_lazy("Bonus points per enemy put out of action"),
        gettext_lazy("%(value)s per enemy put out of action"),
    ),
    _bonus(
        "points_per_objective",
        gettext_lazy("Bonus points per scenario objective"),
        gettext_lazy("%(value)s per scenario objective"),
    ),
    Setting(
        "tie_breakers",
        Kind.ORDER,
        gettext_lazy("Tie-breakers, in order"),
        TIE_BREAKERS,
        help=gettext_lazy("The order of tie-breakers; each name at most once."),
        default=list(DEFAULT_TIE_BREAKERS),
        none_text=gettext_lazy("none (equal points share a rank)"),
        choices=lambda: TIE_BREAKER_CHOICES,
        applied_by="battles.campaigns.scoring.scheme_of",
    ),
    Setting(
        "table_size",
        Kind.TEXT,
        gettext_lazy("Table size"),
        TABLE,
        max_length=40,
        presets={
            "skirmish": "90 × 90 cm",
            "raid": "120 × 120 cm",
            "war": "180 × 120 cm",
            "legends": "240 × 120 cm",
        },
        guidance=True,
    ),
    Setting(
        "game_length",
        Kind.TEXT,
        gettext_lazy("Game length"),
        TABLE,
        max_length=40,
        presets={
            "skirmish": gettext_lazy("up to 1 hour"),
            "raid": gettext_lazy("1 to 2 hours"),
            "war": gettext_lazy("2 to 3 hours"),
            "legends": gettext_lazy("3 hours or more"),
        },
        guidance=True,
    ),
    Setting(
        "allowed_warband_types",
        Kind.TYPES,
        gettext_lazy("Allowed warband types"),
        ROSTERS,
        help=gettext_lazy("None checked: every warband type may join."),
        none_text=gettext_lazy("all"),
        check=checks.allowed_types_check,
    ),
    Setting(
        "optional_rules",
        Kind.CHOICES,
        gettext_lazy("Optional rules"),
        ROSTERS,
        default=[],
        none_text=gettext_lazy("none"),
        error=gettext_lazy("Unknown optional rule; choose from: %(rules)s."),
        choices=optional_rule_choices,
        applied_by="rules.engine.tracker.setup.setup_from_dict",
    ),
    Setting(
        "hired_swords_forbidden",
        Kind.SWORDS,
        gettext_lazy("Hired swords forbidden"),
        ROSTERS,
        help=gettext_lazy(
            "Forbid every hired sword, or only those checked: warbands in the campaign cannot "
            "hire them. Once the campaign is open, forbidding a sword a member already has is "
            "refused."
        ),
        default=[],
        none_text=gettext_lazy("none"),
        check=checks.hired_swords_check,
        needs=frozenset({checks.FIGHTERS}),
    ),
    Setting(
        "warbands_in_other_campaigns",
        Kind.FLAG,
        gettext_lazy("Warbands may also play in another running campaign"),
        ROSTERS,
        help=gettext_lazy(
            "Unchecked: a warband that plays in a running campaign cannot join this one until "
            "that campaign ends."
        ),
        default=False,
        applied_by="battles.campaigns.services.membership.other_campaigns_check",
    ),
    Setting(
        "tables",
        Kind.TABLES,
        gettext_lazy("Campaign tables"),
        ROSTERS,
        help=gettext_lazy(
            "Overrides as JSON, each replacing the content pack's table or the default one; "
            "empty: the pack's tables, else the default ones."
        ),
        default={},
        none_text=gettext_lazy("the defaults"),
        applied_by="battles.postbattle.sequence._Sequence",
    ),
)


def setting(key: str) -> Setting:
    return next(s for s in SETTINGS if s.key == key)


def house_rule_keys() -> tuple[str, ...]:
    """The settings ``house_rules_clean`` checks and the campaign services write as values (the
    allowed warband types are written apart: a many-to-many)."""
    return tuple(s.key for s in SETTINGS if s.kind != Kind.TYPES)


def scoring_keys() -> tuple[str, ...]:
    """The settings the standings are computed from: a change recomputes them."""
    return tuple(s.key for s in SETTINGS if s.group in SCORING_GROUPS)


def preset_settings() -> tuple[Setting, ...]:
    return tuple(s for s in SETTINGS if s.presets)


def preset_values(slug: str) -> dict[str, Any]:
    """The house rules a size preset sets (``presets.PRESETS`` lists the presets)."""
    return {s.key: s.presets[slug] for s in preset_settings()}


def grouped() -> list[tuple[Group, list[Setting]]]:
    return [(group, [s for s in SETTINGS if s.group == group]) for group in GROUPS]
