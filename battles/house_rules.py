"""House rules: checking the values an organiser sets (``house_rules_clean``), and checking a
warband against the house rules of the campaigns it plays in.

``house_rules_clean`` is the one validation of house-rule values: the campaign services call it,
and so do the campaign form and the API serializer (for field errors before the service runs),
so every door answers the same message for the same bad value.

The check itself is a plain function over simple facts (``roster_violations``); the Django side
gathers the facts and is registered with ``warbands.constraints`` in ``BattlesConfig.ready()``,
so every roster change (a purchase, a hire) is refused, inside its transaction, when it would
break the rules of an active campaign the warband plays in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Count, F
from django.utils.translation import gettext as _

from annuminas.validation import json_check
from warbands.models import Fighter, HiredSword

from .models import CAMPAIGN_TABLES, OPTIONAL_RULES, Campaign
from .roster import fighter_type_counts, hired_swords_in
from .scoring import BONUS_FIELDS, POINT_FIELDS, POINTS_RANGE, SCORING_FIELDS, scoring_clean

# Hired swords a campaign forbids: a list of their slugs, or "all" (issue 13 §1).
HIRED_SWORDS_FORBIDDEN = "hired_swords_forbidden"
ALL_HIRED_SWORDS = "all"
HOUSE_RULE_FIELDS = (
    "starting_treasury",
    "rating_cap",
    "max_fighter_type_copies",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "optional_rules",
    "tables",
    "table_size",
    "game_length",
)
# Every rule ``house_rules_clean`` checks: the house rules above and the scoring
# (``battles.scoring``: points, bonus points, tie-breakers).
HOUSE_RULE_KEYS = tuple(
    dict.fromkeys((*HOUSE_RULE_FIELDS, HIRED_SWORDS_FORBIDDEN, *SCORING_FIELDS))
)
# Whole-number limits: (lowest, highest); ``None`` allowed where it means "no limit". The
# points' bounds are checked by ``scoring_clean``; they are here for the forms' widgets.
LIMIT_BOUNDS = {
    "starting_treasury": (0, 100_000),
    "rating_cap": (1, 100_000),
    "max_fighter_type_copies": (1, 99),
}
NUMBER_BOUNDS = {**LIMIT_BOUNDS, **dict.fromkeys((*POINT_FIELDS, *BONUS_FIELDS), POINTS_RANGE)}
NO_LIMIT_ALLOWED = ("rating_cap", "max_fighter_type_copies")
TEXT_MAX_LENGTH = {"table_size": 40, "game_length": 40}
# Every table override together, as JSON: the default tables in this shape are ~3 kB and nest
# 5 deep (tables → rows → row → options → a sub-roll's pair); texts are results and names.
TABLES_MAX_BYTES = 50_000
TABLES_MAX_DEPTH = 6
TABLES_MAX_STRING_LENGTH = 200
# Campaign tables given as rows {"min", "max", "result", …} (the engine's own shape).
ROW_TABLES = (
    "hero_injuries",
    "henchman_injuries",
    "hero_advances",
    "henchman_advances",
    "underdog_bonus",
    "exploration",
)


@dataclass(frozen=True)
class HouseRules:
    campaign_name: str
    rating_cap: int | None = None
    allowed_warband_type_ids: frozenset = frozenset()
    allowed_warband_type_names: tuple[str, ...] = ()
    max_fighter_type_copies: int | None = None
    # "all", or the slugs of the hired swords the campaign forbids
    hired_swords_forbidden: str | frozenset = frozenset()


@dataclass(frozen=True)
class RosterFacts:
    name: str
    rating: int
    warband_type_id: int
    warband_type_name: str
    # fighter type name → how many warriors of that type the warband fields
    fighter_type_counts: Mapping[str, int] = field(default_factory=dict)
    # slug → name of each hired sword in the roster
    hired_swords: Mapping[str, str] = field(default_factory=dict)


def roster_violations(rules: HouseRules, roster: RosterFacts) -> list[str]:
    problems = []
    if rules.rating_cap is not None and roster.rating > rules.rating_cap:
        problems.append(
            _(
                "%(warband)s would have a rating of %(rating)s, over the cap of %(cap)s "
                "of the campaign %(campaign)s."
            )
            % {
                "warband": roster.name,
                "rating": roster.rating,
                "cap": rules.rating_cap,
                "campaign": rules.campaign_name,
            }
        )
    if (
        rules.allowed_warband_type_ids
        and roster.warband_type_id not in rules.allowed_warband_type_ids
    ):
        problems.append(
            _("The campaign %(campaign)s does not allow %(type)s; it allows: %(allowed)s.")
            % {
                "campaign": rules.campaign_name,
                "type": roster.warband_type_name,
                "allowed": ", ".join(rules.allowed_warband_type_names),
            }
        )
    if rules.max_fighter_type_copies is not None:
        for type_name, count in sorted(roster.fighter_type_counts.items()):
            if count > rules.max_fighter_type_copies:
                problems.append(
                    _(
                        "%(warband)s would field %(count)s × %(type)s; the campaign %(campaign)s "
                        "allows at most %(max)s of one fighter type."
                    )
                    % {
                        "warband": roster.name,
                        "count": count,
                        "type": type_name,
                        "campaign": rules.campaign_name,
                        "max": rules.max_fighter_type_copies,
                    }
                )
    forbidden = rules.hired_swords_forbidden
    for slug, name in sorted(roster.hired_swords.items()):
        if forbidden == ALL_HIRED_SWORDS or slug in forbidden:
            problems.append(
                _("The campaign %(campaign)s does not allow the hired sword %(sword)s.")
                % {"campaign": rules.campaign_name, "sword": name}
            )
    return problems


def _forbidden_swords(campaign) -> str | frozenset:
    value = getattr(campaign, HIRED_SWORDS_FORBIDDEN, None) or []
    return ALL_HIRED_SWORDS if value == ALL_HIRED_SWORDS else frozenset(value)


def rules_of(campaign) -> HouseRules:
    types = list(campaign.allowed_warband_types.all()) if _restricts_types(campaign) else []
    return HouseRules(
        campaign_name=campaign.name,
        rating_cap=campaign.rating_cap,
        allowed_warband_type_ids=frozenset(t.pk for t in types),
        allowed_warband_type_names=tuple(sorted(t.display_name for t in types)),
        max_fighter_type_copies=campaign.max_fighter_type_copies,
        hired_swords_forbidden=_forbidden_swords(campaign),
    )


def _restricts_types(campaign) -> bool:
    # Annotated by validate_warband_in_campaigns; other callers load the list.
    return getattr(campaign, "allowed_type_count", 1) > 0


def roster_facts(warband, *, count_types: bool = True, swords: bool = True) -> RosterFacts:
    fighters = getattr(warband, ROSTER_IN_MEMORY, None)
    if fighters is None:
        counts = fighter_type_counts(warband) if count_types else {}
        hired = hired_swords_in(warband) if swords else {}
    else:  # the roster as the post-battle apply holds it (``house_rules_inputs_attach``)
        counts, hired = _roster_in_memory_facts(fighters)
    return RosterFacts(
        name=warband.name,
        rating=warband.rating,
        warband_type_id=warband.warband_type_id,
        warband_type_name=warband.warband_type.display_name,
        fighter_type_counts=counts if count_types else {},
        hired_swords=hired if swords else {},
    )


def _roster_in_memory_facts(fighters: list) -> tuple[dict[str, int], dict[str, str]]:
    """``fighter_type_counts`` and ``hired_swords_in`` of fighters held in memory."""
    counts: dict[str, int] = {}
    hired: dict[str, str] = {}
    for fighter in fighters:
        if fighter.status not in Fighter.IN_ROSTER:
            continue
        kind = fighter.fighter_type
        if fighter.is_hero:  # henchmen are troops: no copies cap (see roster.fighter_type_counts)
            counts[kind.display_name] = counts.get(kind.display_name, 0) + 1
        if fighter.hired_sword_id:
            hired[kind.slug] = kind.display_name
    return counts, hired


def check_warband(warband, campaigns: Iterable) -> None:
    """Raise ``ValidationError`` listing every house rule ``warband`` breaks in ``campaigns``."""
    campaigns = list(campaigns)
    if not campaigns:
        return
    count_types = any(c.max_fighter_type_copies is not None for c in campaigns)
    swords = any(_forbidden_swords(c) for c in campaigns)
    facts = roster_facts(warband, count_types=count_types, swords=swords)
    problems = [p for campaign in campaigns for p in roster_violations(rules_of(campaign), facts)]
    if problems:
        raise ValidationError(problems)


def validate_warband_in_campaigns(warband) -> None:
    """The validator registered with ``warbands.constraints``: the active campaigns only.

    It runs on every roster change, so it reads only what the campaigns' rules need: one query
    in the common case (no type restriction, no copy limit), none for a warband given its
    inputs by ``house_rules_inputs_attach``."""
    campaigns = getattr(warband, CAMPAIGNS_IN_PLAY, None)
    if campaigns is None:
        campaigns = _campaigns_in_play().filter(memberships__warband=warband).distinct()
    check_warband(warband, campaigns)


# Set by ``house_rules_inputs_attach`` on a warband instance: what the check reads otherwise.
CAMPAIGNS_IN_PLAY = "campaigns_in_play"
ROSTER_IN_MEMORY = "roster_in_memory"


def _campaigns_in_play():
    return Campaign.objects.filter(
        memberships__active=True,
        state__in=[Campaign.State.OPEN, Campaign.State.RUNNING],
        archived=False,
    ).annotate(allowed_type_count=Count("allowed_warband_types", distinct=True))


def house_rules_inputs_attach(warbands: list, fighters: dict[int, list]) -> None:
    """Read the campaigns in play of several locked warbands in one query, and give each
    warband instance them and its roster as held in memory (``fighters`` per warband id, the
    very instances its writes change), so checking them reads nothing more. The post-battle
    apply uses it: it checks every participant once, at the end of its sequence."""
    by_warband: dict[int, list[Campaign]] = {warband.pk: [] for warband in warbands}
    for campaign in (
        _campaigns_in_play()
        .filter(memberships__warband_id__in=list(by_warband))
        .annotate(member_warband_id=F("memberships__warband_id"))
    ):
        if all(c.pk != campaign.pk for c in by_warband[campaign.member_warband_id]):
            by_warband[campaign.member_warband_id].append(campaign)
    for warband in warbands:
        setattr(warband, CAMPAIGNS_IN_PLAY, by_warband[warband.pk])
        setattr(warband, ROSTER_IN_MEMORY, fighters[warband.pk])


# --- the values an organiser sets ----------------------------------------------------------------
def _whole(value) -> int | None:
    """``value`` as a whole number (an int, not a bool, or digits in a string), else ``None``."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return value if type(value) is int else None


def _limit_error(name: str) -> str:
    low, high = LIMIT_BOUNDS[name]
    bounds = {"low": low, "high": high}
    if name == "starting_treasury":
        return (
            _("The starting treasury must be a whole number of coronas from %(low)s to %(high)s.")
            % bounds
        )
    if name == "rating_cap":
        return (
            _(
                "The rating cap must be a whole number from %(low)s to %(high)s, "
                "or empty for no cap."
            )
            % bounds
        )
    return (
        _("Allow from %(low)s to %(high)s copies of one fighter type, or leave it empty.") % bounds
    )


def _clean_limits(values: Mapping[str, Any], clean: dict, errors: dict) -> None:
    for name, (low, high) in LIMIT_BOUNDS.items():
        if name not in values:
            continue
        if values[name] is None and name in NO_LIMIT_ALLOWED:
            clean[name] = None
            continue
        number = _whole(values[name])
        if number is None or not low <= number <= high:
            errors[name] = _limit_error(name)
        else:
            clean[name] = number


def _rows_ok(rows) -> bool:
    def whole(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000

    return (
        isinstance(rows, list)
        and bool(rows)
        and all(
            isinstance(row, dict)
            and whole(row.get("min"))
            and whole(row.get("max"))
            and row["min"] <= row["max"]
            and len(row) > 2
            for row in rows
        )
    )


def _scenarios_ok(items) -> bool:
    return (
        isinstance(items, list)
        and 0 < len(items) <= 50
        and all(
            isinstance(item, dict)
            and set(item) <= {"name", "attacker_defender"}
            and isinstance(item.get("name"), str)
            and 0 < len(item["name"].strip()) <= 120
            and isinstance(item.get("attacker_defender", False), bool)
            for item in items
        )
    )


def _tables_error(tables) -> str | None:
    try:
        json_check(
            tables,
            max_bytes=TABLES_MAX_BYTES,
            max_depth=TABLES_MAX_DEPTH,
            max_string_length=TABLES_MAX_STRING_LENGTH,
        )
    except ValidationError as error:
        return error.messages[0]
    if not isinstance(tables, dict) or any(
        key not in CAMPAIGN_TABLES or not isinstance(value, list | dict)
        for key, value in tables.items()
    ):
        return _(
            "Table overrides are an object whose keys are among: %(tables)s, each holding "
            "rows (a list) or a mapping."
        ) % {"tables": ", ".join(CAMPAIGN_TABLES)}
    if "scenarios" in tables and not _scenarios_ok(tables["scenarios"]):
        return _(
            "scenarios: a list of scenarios, each with a name (at most 120 characters) and "
            "whether it has an attacker and a defender (attacker_defender: true or false)."
        )
    bad = [name for name, rows in tables.items() if name in ROW_TABLES and not _rows_ok(rows)]
    if bad:
        return _(
            "%(tables)s: each row needs whole numbers min ≤ max and a result, like the "
            "default table's rows."
        ) % {"tables": ", ".join(sorted(bad))}
    return None


def _hired_swords_clean(value) -> str | list[str]:
    """``"all"``, or a list of hired swords' slugs (each known to the catalogue, once)."""
    if value == ALL_HIRED_SWORDS:
        return ALL_HIRED_SWORDS
    if value in (None, ""):
        return []
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValidationError(
            _('Forbid hired swords with a list of their slugs, or "all" for every one.')
        )
    slugs = list(dict.fromkeys(value))
    known = set(
        HiredSword.objects.filter(fighter_type__slug__in=slugs).values_list(
            "fighter_type__slug", flat=True
        )
    )
    unknown = [slug for slug in slugs if slug not in known]
    if unknown:
        raise ValidationError(
            _("Unknown hired swords: %(slugs)s.") % {"slugs": ", ".join(unknown[:10])}
        )
    return slugs


def house_rules_clean(values: Mapping[str, Any], *, current=None) -> dict[str, Any]:
    """The rules among ``values`` (only the keys of ``HOUSE_RULE_KEYS`` given), checked and
    normalised; the scoring by ``battles.scoring.scoring_clean``, which reads the fields not
    given from ``current`` (a campaign). Raises ``ValidationError`` with one message per field
    that is wrong."""
    errors: dict[str, Any] = {}
    clean: dict[str, Any] = {}
    _clean_limits(values, clean, errors)
    try:
        clean.update(scoring_clean(values, current=current))
    except ValidationError as error:
        errors.update(error.message_dict)
    if "optional_rules" in values:
        known = dict(OPTIONAL_RULES)
        rules = list(dict.fromkeys(values["optional_rules"] or []))
        if any(rule not in known for rule in rules):
            errors["optional_rules"] = _("Unknown optional rule; choose from: %(rules)s.") % {
                "rules": ", ".join(known)
            }
        clean["optional_rules"] = rules
    if HIRED_SWORDS_FORBIDDEN in values:
        try:
            clean[HIRED_SWORDS_FORBIDDEN] = _hired_swords_clean(values[HIRED_SWORDS_FORBIDDEN])
        except ValidationError as error:
            errors[HIRED_SWORDS_FORBIDDEN] = error.messages[0]
    if "tables" in values:
        clean["tables"] = values["tables"] or {}
        if problem := _tables_error(clean["tables"]):
            errors["tables"] = problem
    for name, longest in TEXT_MAX_LENGTH.items():
        if name in values:
            clean[name] = str(values[name] or "").strip()
            if len(clean[name]) > longest:
                errors[name] = _("Keep it to %(max)s characters at most.") % {"max": longest}
    if errors:
        raise ValidationError(errors)
    return clean
