"""What an organiser's pack may point at without defining it: the default catalogue."""

from __future__ import annotations

from ..models import Equipment, EquipmentList, Race, SkillList, SpecialRule, WarbandType

SECTION_MODELS = {
    "races": Race,
    "special_rules": SpecialRule,
    "skill_lists": SkillList,
    "equipment": Equipment,
    "equipment_lists": EquipmentList,
    "warband_types": WarbandType,
}


class DefaultCatalogue:
    """What an organiser's pack may point at without defining it: the default catalogue."""

    def __call__(self, section: str) -> set[str]:
        model = SECTION_MODELS.get(section)
        if model is None:
            return set()
        return set(model.objects.filter(pack_version=None).values_list("slug", flat=True))

    def race_maxima(self, race: str) -> dict | None:
        row = Race.objects.filter(pack_version=None, slug=race).first()
        return row.max_profile() if row else None


def known_default() -> DefaultCatalogue:
    return DefaultCatalogue()
