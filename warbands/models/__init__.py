from .catalogue import (
    CHARACTERISTIC_FIELDS,
    PROFILE_FIELDS,
    SPANISH_NAMES,
    ContentPack,
    Equipment,
    EquipmentList,
    EquipmentListEntry,
    FighterType,
    HiredSword,
    Race,
    Skill,
    SkillList,
    SpecialRule,
    WarbandType,
)
from .packs import PackVersion
from .roster import EquipmentItem, Fighter, HenchmanGroup, LedgerEntry, Warband
from .undo import UndoPoint

__all__ = [
    "CHARACTERISTIC_FIELDS",
    "PROFILE_FIELDS",
    "PackVersion",
    "SPANISH_NAMES",
    "ContentPack",
    "Equipment",
    "EquipmentItem",
    "EquipmentList",
    "EquipmentListEntry",
    "Fighter",
    "FighterType",
    "HenchmanGroup",
    "HiredSword",
    "LedgerEntry",
    "Race",
    "Skill",
    "SkillList",
    "SpecialRule",
    "UndoPoint",
    "Warband",
    "WarbandType",
]
