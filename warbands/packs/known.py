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
    """What an organiser's pack may point at without defining it: the default catalogue. One
    instance serves one check of a document: each section's slugs are read once (a pack
    copied from the default one points at the catalogue a few thousand times)."""

    def __init__(self) -> None:
        self._slugs: dict[str, frozenset[str]] = {}
        self._maxima: dict[str, dict] | None = None

    def __call__(self, section: str) -> frozenset[str]:
        if section not in self._slugs:
            model = SECTION_MODELS.get(section)
            rows = model.objects.filter(pack_version=None) if model is not None else None
            slugs = rows.values_list("slug", flat=True) if rows is not None else ()
            self._slugs[section] = frozenset(slugs)
        return self._slugs[section]

    def race_maxima(self, race: str) -> dict | None:
        if self._maxima is None:
            self._maxima = {
                row.slug: row.max_profile() for row in Race.objects.filter(pack_version=None)
            }
        return self._maxima.get(race)


def known_default() -> DefaultCatalogue:
    return DefaultCatalogue()
