"""Reads for the rules pages."""

from django.apps import apps


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
