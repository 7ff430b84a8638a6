"""Every warband type of the default pack has rare items in its trading lists, so
the post-battle rare-item roll (2D6 against each item's rarity) can offer each of them something."""

import pytest

from battles.postbattle.sequence import _rare_for
from rules.engine.dice import Dice
from warbands.models import Equipment, Warband, WarbandType

pytestmark = pytest.mark.django_db

MIN_RARE_ITEMS = 4
# A hero who rolls this on 2D6 (a 72 % chance of at least it) finds something, whatever his band.
COMMON_ENOUGH = 8


def _default_pack_types():
    return list(WarbandType.objects.filter(pack__slug="annuminas", playable=True).order_by("slug"))


def test_every_warband_type_has_its_rare_items(content):
    types = _default_pack_types()
    assert len(types) == 11
    for warband_type in types:
        rare = _rare_for(Warband(warband_type=warband_type))
        assert len(rare) >= MIN_RARE_ITEMS, (warband_type.slug, sorted(rare))
        assert all(2 <= item.rarity <= 12 for item in rare.values())
        assert min(item.rarity for item in rare.values()) <= COMMON_ENOUGH, warband_type.slug


def test_the_lists_fit_their_warbands(content):
    def rare(slug: str) -> set[str]:
        return set(_rare_for(Warband(warband_type=WarbandType.objects.get(slug=slug))))

    assert {"capa-elfica", "lembas", "cota-de-mithril"} <= rare("elfos-de-rivendel")
    assert {"armadura-enana", "runa-de-proteccion"} <= rare("enanos-buscadores-de-tesoros")
    assert {"veneno-negro", "setas-de-locura"} <= rare("orcos-de-angmar")
    assert "talisman-de-angmar" in rare("angmarim-de-carn-dum")
    assert "capa-elfica" not in rare("orcos-de-angmar")
    assert "lembas" not in rare("hombres-del-este")


def test_a_roll_of_eight_finds_something_for_every_warband(content):
    """The post-battle step's own source of offers (``_rare_for``) and its rule (an item is
    found when its rarity is at most the 2D6 roll), with the dice given as faces."""
    for warband_type in _default_pack_types():
        total = Dice(faces=[4, 4]).roll("2D6", "rare items").total
        rare = _rare_for(Warband(warband_type=warband_type))
        found = [slug for slug, item in rare.items() if item.rarity <= total]
        assert found, warband_type.slug
        assert Equipment.objects.filter(slug__in=found, rarity__lte=8).count() == len(found)


def test_each_warband_type_trades_in_its_own_rare_items(content):
    """No two warband types share the same selection (the realms of Men share their weapons,
    not their rare items), and each fits its place in the setting."""
    selections = {
        warband_type.slug: frozenset(_rare_for(Warband(warband_type=warband_type)))
        for warband_type in _default_pack_types()
    }
    owners: dict[frozenset, str] = {}
    for slug, rare in selections.items():
        assert rare not in owners, (slug, owners.get(rare), sorted(rare))
        owners[rare] = slug
    cardolan = selections["guerreros-de-cardolan"]
    rhovanion = selections["mercenarios-de-rhovanion"]
    rhudaur = selections["guerreros-de-rhudaur"]
    assert {"punal-de-los-tumulos", "hojas-de-athelas", "hierba-de-la-cuaderna"} <= cardolan
    assert {"vino-de-dorwinion", "armadura-enana", "catalejo-enano"} <= rhovanion
    assert "talisman-de-angmar" in rhudaur
    assert not {"punal-de-los-tumulos", "vino-de-dorwinion"} & rhudaur
    assert "vino-de-dorwinion" not in cardolan and "punal-de-los-tumulos" not in rhovanion
