"""Hired swords: catalogue data, hiring for a fee, the limits, rating,
leaving, export/import, the API and the sheet."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from rules.engine.postbattle.experience import warband_rating
from tests.warbands.fixtures import build_roster
from warbands import services
from warbands.models import EquipmentItem, Fighter, HiredSword, LedgerEntry, WarbandType
from warbands.services.hired_swords import (
    hired_sword_hire,
    hired_sword_leave,
    hired_sword_pay_upkeep,
    hired_swords_for,
)

pytestmark = pytest.mark.django_db

RANGER = "montaraz-errante"
DWARF = "enano-de-las-montanas-azules"


def sword(slug: str) -> HiredSword:
    return HiredSword.objects.select_related("fighter_type").get(fighter_type__slug=slug)


def test_the_default_pack_offers_six_hired_swords_with_their_terms(content):
    swords = list(HiredSword.objects.select_related("fighter_type"))
    assert len(swords) == 6
    ranger = sword(RANGER)
    assert (ranger.hire_fee, ranger.upkeep, ranger.rating_value) == (40, 20, 5)
    assert ranger.fighter_type.starting_experience == 20
    assert sorted(e.slug for e in ranger.equipment.all()) == sorted(
        ["espada", "daga", "arco-largo", "armadura-ligera"]
    )
    holder = ranger.fighter_type.warband_type
    assert holder.slug == "espadas-de-alquiler" and holder.playable is False
    assert "espadas de alquiler" in holder.pack.description.lower()
    orcs = WarbandType.objects.get(slug="orcos-de-angmar")
    assert RANGER not in [s.slug for s in hired_swords_for(orcs)]


def test_hiring_pays_the_fee_through_the_ledger_and_brings_its_own_gear(warband):
    hired = hired_sword_hire(warband=warband, hired_sword=sword(RANGER), name="Halbarad")
    warband.refresh_from_db()
    assert warband.treasury == 500 - 40
    entry = LedgerEntry.objects.filter(warband=warband).latest("pk")
    assert (entry.amount, entry.reason, entry.source_id) == (-40, "hire", hired.pk)
    assert hired.is_hero and not hired.is_leader and hired.hired_sword_id == sword(RANGER).pk
    assert hired.experience == 20
    gear = EquipmentItem.objects.filter(fighter=hired)
    assert gear.count() == 4 and all(item.unit_price == 0 for item in gear)


def test_a_warband_type_the_sword_will_not_serve_is_refused(content, make_warband):
    orcs = make_warband(type_slug="orcos-de-angmar")
    with pytest.raises(ValidationError, match="does not serve"):
        hired_sword_hire(warband=orcs, hired_sword=sword(RANGER))
    orcs.refresh_from_db()
    assert orcs.treasury == 500 and not orcs.fighters.exists()


def test_an_allowed_list_restricts_who_may_hire(warband):
    terms = sword(DWARF)
    terms.allowed_warband_types.set([WarbandType.objects.get(slug="guerreros-de-arthedain")])
    with pytest.raises(ValidationError, match="does not serve"):
        hired_sword_hire(warband=warband, hired_sword=terms)


def test_one_of_each_per_warband_unless_the_data_says_otherwise(warband):
    hired_sword_hire(warband=warband, hired_sword=sword(DWARF))
    with pytest.raises(ValidationError, match="already serves"):
        hired_sword_hire(warband=warband, hired_sword=sword(DWARF))
    dwarf_type = sword(DWARF).fighter_type
    dwarf_type.max_count = 2
    dwarf_type.save()
    hired_sword_hire(warband=warband, hired_sword=sword(DWARF), name="Nali")
    assert warband.fighters.filter(hired_sword__isnull=False).count() == 2


def test_a_short_treasury_is_refused_with_nothing_written(warband):
    services.ledger_record(warband=warband, amount=-480, reason="adjustment", description="t")
    before = LedgerEntry.objects.count()
    with pytest.raises(ValidationError, match="Not enough coronas"):
        hired_sword_hire(warband=warband, hired_sword=sword(RANGER))
    assert LedgerEntry.objects.count() == before and not warband.fighters.exists()


def test_not_a_hero_for_the_hero_limit_but_a_warrior_for_the_size(warband):
    build_roster(warband, henchmen=0)  # leader and two heroes
    kind = warband.warband_type
    kind.max_heroes, kind.max_size = 3, 4
    kind.save()
    hired_sword_hire(warband=warband, hired_sword=sword(RANGER))
    assert warband.fighters.filter(status__in=Fighter.IN_ROSTER).count() == 4
    with pytest.raises(ValidationError, match="at most 4 warriors"):
        hired_sword_hire(warband=warband, hired_sword=sword(DWARF))
    assert not warband.fighters.filter(hired_sword=sword(DWARF)).exists()


def test_rating_counts_the_swords_fixed_value_plus_its_experience(warband):
    hired_sword_hire(warband=warband, hired_sword=sword(RANGER))
    warband.refresh_from_db()
    assert warband.rating == 5 + 20
    terms = sword(RANGER)
    terms.rating_value = 12
    terms.save()
    services.warband_rating_refresh(warband=warband)
    warband.refresh_from_db()
    assert warband.rating == 12 + 20


def test_the_engine_rating_takes_a_fixed_value_as_data():
    assert warband_rating(warriors=[{"experience": 3}, {"experience": 7, "rating": 30}]) == (
        5 + 3 + 30 + 7
    )


def test_upkeep_paid_through_the_ledger_and_never_below_zero(warband):
    hired = hired_sword_hire(warband=warband, hired_sword=sword(RANGER))
    hired_sword_pay_upkeep(fighter=hired)
    warband.refresh_from_db()
    assert warband.treasury == 500 - 40 - 20
    services.ledger_record(
        warband=warband, amount=-warband.treasury + 5, reason="adjustment", description="t"
    )
    with pytest.raises(ValidationError, match="Not enough coronas"):
        hired_sword_pay_upkeep(fighter=hired)
    warband.refresh_from_db()
    assert warband.treasury == 5


def test_leaving_takes_his_own_gear_and_keeps_him_on_the_record(warband):
    hired = hired_sword_hire(warband=warband, hired_sword=sword(RANGER))
    hired_sword_leave(fighter=hired)
    hired.refresh_from_db()
    assert hired.status == Fighter.Status.RETIRED
    assert not EquipmentItem.objects.filter(warband=warband).exists()
    warband.refresh_from_db()
    assert warband.rating == 0


def test_export_import_round_trip_keeps_the_hired_sword(warband, user):
    hired_sword_hire(warband=warband, hired_sword=sword(RANGER), name="Halbarad")
    document = services.warband_export(warband=warband)
    [row] = [f for f in document["fighters"] if f.get("hired_sword")]
    assert row["hired_sword"] == RANGER
    copy = services.warband_import(owner=user, data=document)
    imported = copy.fighters.get(name="Halbarad")
    assert imported.hired_sword_id == sword(RANGER).pk and imported.is_hero
    assert imported.equipment.count() == 4
    assert copy.rating == warband.rating


def test_api_lists_hired_swords_and_hires_one(warband, user):
    client = APIClient()
    client.force_authenticate(user)
    answer = client.get("/api/v1/catalogue/hired-swords/")
    assert answer.status_code == 200, answer.content
    rows = answer.json()["results"]
    ranger = next(row for row in rows if row["slug"] == RANGER)
    assert (ranger["hire_fee"], ranger["upkeep"], ranger["rating_value"]) == (40, 20, 5)
    assert "orcos-de-angmar" in ranger["may_not_hire"]
    answer = client.post(
        f"/api/v1/warbands/{warband.pk}/hired-swords/",
        {"hired_sword": RANGER, "name": "Halbarad"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    warband.refresh_from_db()
    assert warband.treasury == 460
    again = client.post(
        f"/api/v1/warbands/{warband.pk}/hired-swords/", {"hired_sword": RANGER}, format="json"
    )
    assert again.status_code == 400
    assert "ya sirve a esta banda" in again.json()["error"]["message"]  # Spanish by default
    unknown = client.post(
        f"/api/v1/warbands/{warband.pk}/hired-swords/", {"hired_sword": "nadie"}, format="json"
    )
    assert unknown.status_code == 400
    warband.refresh_from_db()
    assert warband.treasury == 460


def test_the_sheet_and_the_print_show_the_hired_sword_in_its_own_section(client, warband, user):
    from django.urls import reverse

    build_roster(warband, henchmen=0)
    hired_sword_hire(warband=warband, hired_sword=sword(RANGER), name="Halbarad")
    client.force_login(user)
    page = client.get(reverse("warband-sheet", args=[warband.pk])).content.decode()
    section = page[page.index('data-testid="hired-swords"') :]
    assert "Halbarad" in section and "20 co after every battle" in section
    heroes = page[page.index("Heroes</h2>") : page.index('data-testid="hired-swords"')]
    assert "Halbarad" not in heroes  # (the header may offer to undo his hire)
    printed = client.get(reverse("warband-print", args=[warband.pk])).content.decode()
    assert 'data-testid="print-hired-sword"' in printed and "Halbarad" in printed


def test_the_admin_lists_the_hired_swords(client, content):
    from django.contrib.auth import get_user_model

    admin_user = get_user_model().objects.create_superuser("sauron", "s@example.com", "x")
    client.force_login(admin_user)
    page = client.get("/admin/warbands/hiredsword/")
    assert page.status_code == 200
    assert "Montaraz errante" in page.content.decode()
    ranger = sword(RANGER)
    assert client.get(f"/admin/warbands/hiredsword/{ranger.pk}/change/").status_code == 200
