"""House rules applied: checking the values an organiser sets (``house_rules_clean``), and
checking a warband against the house rules of the campaigns it plays in (``check_warband``).

Both walk the declarations of ``league_settings``: each setting's cleaner checks its value, each
roster check its rule. ``house_rules_clean`` is the one validation of house-rule values: the
campaign services call it, and so do the campaign form and the API serializer (for field errors
before the service runs), so every door answers the same message for the same bad value.

The roster side reads only the facts the campaigns' rules need (``Setting.needs``), and is
registered with ``warbands.constraints`` in ``BattlesConfig.ready()``, so every roster change (a
purchase, a hire) is refused, inside its transaction, when it would break the rules of an active
campaign the warband plays in; joining a campaign runs the same check.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Count, F

from battles.campaigns import league_settings
from battles.campaigns.league_settings import Kind, Setting
from battles.campaigns.roster import roster_fighters
from battles.campaigns.setting_checks import (
    ALL_HIRED_SWORDS,
    FIGHTERS,
    FighterFact,
    RosterFacts,
    points_in_order,
)
from battles.models import Campaign
from warbands.models import Fighter

# Checks across settings, run once every setting given is right on its own.
CROSS_CHECKS = (points_in_order,)


def house_rules_clean(values: Mapping[str, Any], *, current=None) -> dict[str, Any]:
    """The settings among ``values`` (only keys of ``league_settings.house_rule_keys()``),
    checked and normalised; the checks across settings read the ones not given from ``current``
    (a campaign). Raises ``ValidationError`` with one message per field that is wrong."""
    errors: dict[str, Any] = {}
    clean: dict[str, Any] = {}
    for setting in league_settings.SETTINGS:
        if setting.key not in values or setting.kind == Kind.TYPES:
            continue
        try:
            clean[setting.key] = setting.cleaner()(setting, values[setting.key])
        except ValidationError as error:
            errors[setting.key] = error.messages[0]

    def final(key: str) -> Any:
        """The setting's value after the change (``None``: wrong, or not known)."""
        if key in clean:
            return clean[key]
        if key in values or current is None:
            return None
        return getattr(current, key)

    for check in CROSS_CHECKS:  # a setting wrong on its own is None here: its checks pass
        errors.update(check(final))
    if errors:
        raise ValidationError(errors)
    return clean


# --- a warband against the campaigns it plays in ----------------------------------------------
def rule_value(setting: Setting, campaign) -> Any:
    """The campaign's value of a roster rule; ``None`` or empty when it restricts nothing."""
    if setting.kind == Kind.TYPES:
        # Annotated by ``_campaigns_in_play``; other callers load the list.
        if getattr(campaign, "allowed_type_count", 1) == 0:
            return []
        return list(campaign.allowed_warband_types.all())
    value = getattr(campaign, setting.key)
    if setting.kind == Kind.SWORDS:
        return ALL_HIRED_SWORDS if value == ALL_HIRED_SWORDS else frozenset(value or ())
    return value


def _rules_in_force(campaigns: Iterable) -> list[tuple[Campaign, Setting, Any]]:
    roster_rules = [s for s in league_settings.SETTINGS if s.check]
    return [
        (campaign, setting, value)
        for campaign in campaigns
        for setting in roster_rules
        if (value := rule_value(setting, campaign)) not in (None, [], frozenset())
    ]


def roster_facts(warband, needs: frozenset[str] = frozenset()) -> RosterFacts:
    """What the house rules read of ``warband``: its fighters only when a rule ``needs`` them
    (one query), or as the post-battle apply holds them in memory (none)."""
    held = getattr(warband, ROSTER_IN_MEMORY, None)
    if held is not None:
        fighters = [_fact(f) for f in held if f.status in Fighter.IN_ROSTER]
    else:
        fighters = roster_fighters(warband) if FIGHTERS in needs else []
    return RosterFacts(
        name=warband.name,
        rating=warband.rating,
        warband_type_id=warband.warband_type_id,
        warband_type_name=warband.warband_type.display_name,
        fighters=tuple(fighters),
    )


def _fact(fighter) -> FighterFact:
    kind = fighter.fighter_type
    return FighterFact(
        type_slug=kind.slug,
        type_name=kind.display_name,
        hero=fighter.is_hero,
        hired_sword=fighter.hired_sword_id is not None,
    )


def check_warband(warband, campaigns: Iterable) -> None:
    """Raise ``ValidationError`` listing every house rule ``warband`` breaks in ``campaigns``,
    campaign by campaign, in the order the settings are declared."""
    in_force = _rules_in_force(campaigns)
    if not in_force:
        return
    needs = frozenset().union(*(setting.needs for _c, setting, _v in in_force))
    facts = roster_facts(warband, needs)
    problems = [
        problem
        for campaign, setting, value in in_force
        for problem in setting.check(value, facts, campaign.name)
    ]
    if problems:
        raise ValidationError(problems)


def validate_warband_in_campaigns(warband) -> None:
    """The validator registered with ``warbands.constraints``: the active campaigns only.

    It runs on every roster change, so it reads only what the campaigns' rules need: one query
    in the common case (no type restriction, no limit counted over the roster), none for a
    warband given its inputs by ``house_rules_inputs_attach``."""
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
