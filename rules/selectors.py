"""Reads for the rules pages."""

from django.apps import apps
from django.utils.translation import gettext

from rules.engine import RACIAL_MAXIMUMS, WEAPONS
from rules.engine.combat import HAND_WEAPON


def weapon_names() -> dict[str, str]:
    """Each weapon the engine knows, by slug, named in the reader's language: the catalogue's
    row of the same slug (with its translation), else the engine's own Spanish name (1 query)."""
    equipment_model = apps.get_model("warbands", "Equipment")
    names = {slug: item.name for slug, item in WEAPONS.items()}
    rows = equipment_model.objects.filter(slug__in=list(WEAPONS)).only(
        "slug", "name", "translations"
    )
    names.update({item.slug: item.display_name for item in rows})
    names[HAND_WEAPON.slug] = gettext("Hand weapon")
    return names


def racial_maximums() -> dict[str, dict]:
    """Each race's maximum profile as the catalogue has it (the content pack, which the
    post-battle sequence applies), else the engine's defaults (1 query)."""
    race_model = apps.get_model("warbands", "Race")
    maximums = {race: profile.to_dict() for race, profile in RACIAL_MAXIMUMS.items()}
    for race in race_model.objects.all():
        profile = race.max_profile()
        if isinstance(profile["m"], float) and profile["m"].is_integer():
            profile["m"] = int(profile["m"])
        maximums[race.slug] = profile
    return maximums


def fighters_for_odds(*, user) -> list[dict]:
    """The user's active fighters and their current profiles, to fill the calculator (1 query)."""
    if not user.is_authenticated:
        return []
    fighter_model = apps.get_model("warbands", "Fighter")
    rows = (
        fighter_model.objects.filter(warband__owner=user, status="active")
        .select_related("warband")
        .order_by("warband__name", "name")
        .only("id", "name", "ws", "bs", "s", "t", "w", "a", "warband__name")
    )
    return [
        {
            "id": fighter.pk,
            "label": f"{fighter.warband.name} — {fighter.name}",
            "profile": {key: getattr(fighter, key) for key in ("ws", "bs", "s", "t", "w", "a")},
        }
        for fighter in rows
    ]
