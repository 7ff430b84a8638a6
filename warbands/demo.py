"""Demo content for ``make run``: one legal warband for the demo user, built with the services."""

from __future__ import annotations

from django.db import transaction

from . import services
from .models import Equipment, FighterType, Warband, WarbandType

DEMO_WARBAND_NAME = "Compañía del Baranduin"
DEMO_WARBAND_TYPE = "guerreros-de-arthedain"


@transaction.atomic
def demo_content_ensure(*, user) -> Warband | None:
    """Build the demo warband once (running it again changes nothing)."""
    existing = Warband.objects.filter(owner=user, name=DEMO_WARBAND_NAME).first()
    if existing is not None:
        return existing
    warband_type = WarbandType.objects.filter(slug=DEMO_WARBAND_TYPE).first()
    if warband_type is None:
        return None
    types = {ft.slug: ft for ft in FighterType.objects.filter(warband_type=warband_type)}
    items = {item.slug: item for item in Equipment.objects.all()}
    warband = services.warband_create(owner=user, warband_type=warband_type, name=DEMO_WARBAND_NAME)
    captain = services.fighter_hire(
        warband=warband, fighter_type=types["capitan-de-arthedain"], name="Arathorn el Joven"
    )
    ranger = services.fighter_hire(
        warband=warband, fighter_type=types["montaraz-del-norte"], name="Halbarad"
    )
    squire = services.fighter_hire(warband=warband, fighter_type=types["escudero"], name="Beren")
    soldiers = services.fighter_hire(
        warband=warband,
        fighter_type=types["soldado-de-arthedain"],
        name="Guardia del vado",
        count=3,
    )
    archers = services.fighter_hire(
        warband=warband, fighter_type=types["arquero-de-arthedain"], name="Arqueros", count=2
    )
    for holder, slugs in (
        ({"fighter": captain}, ["daga", "espada", "escudo", "armadura-ligera"]),
        ({"fighter": ranger}, ["daga", "espada", "arco-largo"]),
        ({"fighter": squire}, ["daga", "lanza"]),
        ({"group": soldiers}, ["daga", "lanza", "escudo"]),
        ({"group": archers}, ["daga", "arco"]),
    ):
        for slug in slugs:
            services.equipment_buy(warband=warband, equipment=items[slug], **holder)
    services.warband_update(
        warband=warband,
        expected_version=warband.version,
        notes="Banda de demostración: contrata, equipa y vende para ver cómo cambia la hoja.",
    )
    return warband
