"""Hired swords on the sheet's pages: the hire dialog (htmx) and its page without
JavaScript, the refusals shown in the dialog with nothing written, and letting one go with the
sheet's confirmation step. Also the roster admin beside them: its ledger in the reader's language
and the catalogue export's format."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from battles.campaigns import services as campaigns
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.warbands.fixtures import build_roster
from warbands import services
from warbands.admin import export_rows
from warbands.models import (
    Equipment,
    EquipmentList,
    Fighter,
    HiredSword,
    LedgerEntry,
    Race,
    SkillList,
    SpecialRule,
    WarbandType,
)
from warbands.services.hired_swords import hired_sword_hire

pytestmark = pytest.mark.django_db

RANGER = "montaraz-errante"
SCOUT = "batidor-de-bree"
HTMX = {"HTTP_HX_REQUEST": "true"}
# session, user, warband, swords + 4 prefetches, swords serving, campaigns, rules, messages…
QUERY_BOUND = 11


def sword(slug: str) -> HiredSword:
    return HiredSword.objects.select_related("fighter_type").get(fighter_type__slug=slug)


@pytest.fixture
def player(client, warband):
    client.force_login(warband.owner)
    return client


def hire_url(warband) -> str:
    return reverse("warband-hired-sword-hire", args=[warband.pk])


def choices(response) -> dict[str, str]:
    """slug → the dialog's section for that sword."""
    html = response.content.decode()
    sections = html.split('data-testid="hired-sword-choice"')[1:]
    return {part.split('data-slug="')[1].split('"')[0]: part for part in sections}


def written(warband) -> tuple:
    warband.refresh_from_db()
    return (
        warband.treasury,
        warband.version,
        warband.fighters.count(),
        LedgerEntry.objects.filter(warband=warband).count(),
    )


def test_the_sheet_offers_the_hired_sword_dialog(player, warband):
    page = player.get(reverse("warband-sheet", args=[warband.pk]))
    assert 'data-testid="open-hire-hired-sword"' in page.content.decode()
    assert hire_url(warband) in page.content.decode()


@pytest.mark.parametrize("henchmen", [0, 11])
def test_the_dialog_reads_a_fixed_number_of_queries(player, warband, henchmen, assert_max_queries):
    if henchmen:
        build_roster(warband, henchmen=henchmen)
        hired_sword_hire(warband=warband, hired_sword=sword(SCOUT))
    with assert_max_queries(QUERY_BOUND):
        assert player.get(hire_url(warband), **HTMX).status_code == 200
    with assert_max_queries(QUERY_BOUND):
        assert player.get(hire_url(warband)).status_code == 200


def test_the_dialog_lists_the_swords_with_their_terms(player, warband):
    dialog = player.get(hire_url(warband), **HTMX)
    html = dialog.content.decode()
    assert dialog.status_code == 200 and html.startswith("<dialog")
    ranger = choices(dialog)[RANGER]
    assert "Wandering Ranger" in ranger and "fee 40 co" in ranger  # in the reader's language
    assert "upkeep 20 co after every battle" in ranger
    assert 'data-testid="profile"' in ranger and "Sword" in ranger
    assert "One of the Dúnedain who watch the roads of the North" in ranger
    assert "Montaraz errante" not in ranger and "vigilan los caminos" not in ranger
    assert "hired-sword-unavailable" not in ranger
    assert len(choices(dialog)) == 6


def test_without_javascript_the_dialog_is_a_page(player, warband):
    page = player.get(hire_url(warband))
    html = page.content.decode()
    assert page.status_code == 200 and "<html" in html
    assert 'data-testid="hired-sword-dialog"' in html
    assert reverse("warband-sheet", args=[warband.pk]) in html  # cancel goes back to the sheet


def test_the_dialog_says_why_a_sword_is_not_available(player, content, make_warband):
    orcs = make_warband(type_slug="orcos-de-angmar", name="Orcos")
    dialog = player.get(hire_url(orcs), **HTMX)
    ranger = choices(dialog)[RANGER]
    assert "It does not serve a" in ranger and "disabled" in ranger
    services.ledger_record(warband=orcs, amount=-480, reason="adjustment", description="spent")
    scout = choices(player.get(hire_url(orcs), **HTMX))["guerrero-dunlendino"]
    assert "The treasury is short: the fee is 30 co, the treasury holds 20 co." in scout


def test_already_hired_is_said(player, warband):
    hired_sword_hire(warband=warband, hired_sword=sword(SCOUT))
    scout = choices(player.get(hire_url(warband), **HTMX))[SCOUT]
    assert "Already hired: a warband may hire 1 at most." in scout


def test_hiring_pays_the_fee_and_returns_to_the_sheet(player, warband):
    answer = player.post(
        hire_url(warband),
        {"hired_sword": sword(RANGER).pk, "name": "Halbarad", "version": warband.version},
    )
    assert answer.status_code == 302 and answer["Location"].endswith(f"/warbands/{warband.pk}/")
    warband.refresh_from_db()
    assert warband.treasury == 460
    hired = warband.fighters.get(hired_sword__isnull=False)
    assert hired.name == "Halbarad" and hired.fighter_type.slug == RANGER
    sheet = player.get(answer["Location"]).content.decode()
    assert "Hired Halbarad." in sheet and 'data-testid="hired-sword-card"' in sheet


def test_hiring_with_htmx_redirects_the_page(player, warband):
    answer = player.post(
        hire_url(warband), {"hired_sword": sword(SCOUT).pk, "version": warband.version}, **HTMX
    )
    assert answer.status_code == 204
    assert answer["HX-Redirect"] == reverse("warband-sheet", args=[warband.pk])
    # Empty name: the sword's own, as the dialog showed it (in the hirer's language).
    assert warband.fighters.get().name == "Bree Scout"


@pytest.mark.parametrize("partial", [True, False])
def test_a_refused_hire_is_shown_in_the_dialog_and_writes_nothing(player, warband, partial):
    hired_sword_hire(warband=warband, hired_sword=sword(SCOUT))
    before = written(warband)
    headers = HTMX if partial else {}
    answer = player.post(
        hire_url(warband), {"hired_sword": sword(SCOUT).pk, "version": warband.version}, **headers
    )
    html = answer.content.decode()
    assert answer.status_code == 200 and 'data-testid="hired-sword-errors"' in html
    assert "already serves this warband" in html
    assert html.startswith("<dialog") is partial
    assert written(warband) == before


def test_a_short_treasury_and_a_stale_version_are_refused(player, warband):
    services.ledger_record(warband=warband, amount=-490, reason="adjustment", description="spent")
    before = written(warband)
    short = player.post(
        hire_url(warband), {"hired_sword": sword(RANGER).pk, "version": warband.version}, **HTMX
    )
    assert "hired-sword-errors" in short.content.decode()
    stale = player.post(
        hire_url(warband), {"hired_sword": sword(SCOUT).pk, "version": warband.version - 1}, **HTMX
    )
    assert "hired-sword-errors" in stale.content.decode()
    nothing = player.post(hire_url(warband), {"version": warband.version}, **HTMX)
    assert "Choose a hired sword." in nothing.content.decode()
    assert written(warband) == before


def test_another_players_warband_is_not_found(client, warband, make_user):
    client.force_login(make_user("intruso"))
    assert client.get(hire_url(warband)).status_code == 404
    assert client.post(hire_url(warband), {"hired_sword": sword(SCOUT).pk}).status_code == 404
    assert not warband.fighters.exists()


def test_a_campaign_that_forbids_a_sword_is_said_and_refused(client, league):
    warband = league.warband(0)
    campaigns.campaign_update(
        campaign=league.campaign,
        by=league.organiser,
        changes={"hired_swords_forbidden": [RANGER]},
    )
    client.force_login(warband.owner)
    dialog = choices(client.get(hire_url(warband), **HTMX))
    assert "The campaign Liga de Fornost forbids it." in dialog[RANGER]
    assert "forbids it" not in dialog[SCOUT]
    before = written(warband)
    refused = client.post(
        hire_url(warband), {"hired_sword": sword(RANGER).pk, "version": warband.version}, **HTMX
    )
    assert "does not allow the hired sword" in refused.content.decode()
    assert written(warband) == before


# --- letting one go ----------------------------------------------------------------------------


def let_go_url(warband, fighter) -> str:
    return reverse("warband-fighter-action", args=[warband.pk, fighter.pk, "dismiss"])


def test_letting_a_sword_go_asks_first_without_javascript(player, warband):
    ranger = hired_sword_hire(warband=warband, hired_sword=sword(RANGER), name="Halbarad")
    before = written(warband)
    asked = player.post(let_go_url(warband, ranger), {"version": warband.version})
    html = asked.content.decode()
    assert asked.status_code == 200 and 'data-testid="confirm-page"' in html
    assert "Let Halbarad go?" in html and 'name="confirmed" value="1"' in html
    assert written(warband) == before


def test_letting_a_sword_go_once_confirmed(player, warband):
    ranger = hired_sword_hire(warband=warband, hired_sword=sword(RANGER), name="Halbarad")
    warband.refresh_from_db()
    answer = player.post(
        let_go_url(warband, ranger), {"version": warband.version, "confirmed": "1"}
    )
    assert answer.status_code == 302
    ranger.refresh_from_db()
    assert ranger.status == Fighter.Status.RETIRED  # on the record, out of the roster
    entry = LedgerEntry.objects.filter(warband=warband).latest("pk")
    assert entry.reason == "dismiss" and entry.amount == 0
    assert "Halbarad has left the warband." in player.get(answer["Location"]).content.decode()


# --- the admin (the roster's ledger in the reader's language; the catalogue export) -------------


@pytest.fixture
def staff(client, make_user):
    client.force_login(make_user("curator", is_staff=True, is_superuser=True))
    return client


def test_the_admin_ledger_shows_each_line_in_the_readers_language(staff, warband):
    entry = warband.ledger.get(description_code="starting_treasury")
    url = reverse("admin:warbands_warband_change", args=[warband.pk])
    english = staff.get(url)
    assert english.status_code == 200 and "Starting treasury" in english.content.decode()
    staff.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    with translation.override("es"):
        spanish_text = entry.text
    assert spanish_text != "Starting treasury"
    assert spanish_text in staff.get(url).content.decode()
    assert staff.get(reverse("admin:warbands_warband_changelist")).status_code == 200
    assert staff.get(reverse("admin:warbands_ledgerentry_changelist")).status_code == 200


def test_the_admin_export_keeps_the_pack_file_format(staff, content):
    changelist = reverse("admin:warbands_warbandtype_changelist")
    orcs = WarbandType.objects.get(slug="orcos-de-angmar")
    answer = staff.post(
        changelist, {"action": "export_json", "_selected_action": [orcs.pk]}, follow=False
    )
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == 'attachment; filename="warbandtype.json"'
    section = json.loads(answer.content)["warband_types"]["orcos-de-angmar"]
    assert list(section) == [
        "name", "race", "description", "en", "starting_treasury", "min_size", "max_size",
        "max_heroes", "fighter_types",
    ]  # fmt: skip
    assert section["en"] == {"description": orcs.translations["en"]["description"]}
    leader = next(iter(section["fighter_types"].values()))
    assert list(leader)[:7] == ["name", "en", "role", "cost", "profile", "race", "xp"]
    assert list(leader)[-5:] == ["large", "experience", "equipment", "skills", "rules"]
    every = {
        model: export_rows(model.objects.all())
        for model in (Equipment, Race, SkillList, SpecialRule, EquipmentList)
    }
    assert list(every[Equipment]) == ["equipment"]
    sword_row = every[Equipment]["equipment"]["espada"]
    assert list(sword_row)[:3] == ["name", "kind", "cost"] and "description" in sword_row
    assert set(every[Race]["races"]["dwarf"]) == {"name", "max", "description", "en"}
    assert every[SkillList]["skill_lists"]["combate"]["skills"]
    assert all(
        set(r) == {"name", "description", "en"}
        for r in every[SpecialRule]["special_rules"].values()
    )
    assert every[EquipmentList]["equipment_lists"]
    with pytest.raises(ValueError):
        export_rows(HiredSword.objects.all())
