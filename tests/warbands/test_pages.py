import json
from pathlib import Path

import pytest
import yaml
from django.contrib.staticfiles import finders
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.warbands.fixtures import build_roster, equipment, fighter_type
from warbands import services
from warbands.models import Equipment, Fighter, Warband

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser_client(client, user):
    client.force_login(user)
    return client


def sheet_url(warband):
    return reverse("warband-sheet", args=[warband.pk])


def test_pages_need_login(client, warband):
    for url in (reverse("warband-list"), reverse("warband-create"), sheet_url(warband)):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_list_and_create(browser_client, content):
    assert "no warband yet" in browser_client.get(reverse("warband-list")).content.decode()
    from warbands.models import WarbandType

    elves = WarbandType.objects.get(slug="elfos-de-rivendel")
    response = browser_client.post(
        reverse("warband-create"), {"name": "Hijos de Elrond", "warband_type": elves.pk}
    )
    warband = Warband.objects.get(name="Hijos de Elrond")
    assert response["Location"] == sheet_url(warband)
    page = browser_client.get(reverse("warband-list")).content.decode()
    assert "Hijos de Elrond" in page and "500 co" in page


def test_create_refuses_bad_input(browser_client, content):
    response = browser_client.post(reverse("warband-create"), {"name": "", "warband_type": ""})
    assert response.status_code == 200 and Warband.objects.count() == 0


@pytest.mark.parametrize("henchmen", [0, 12])
def test_sheet_page_query_count_is_fixed(browser_client, warband, assert_max_queries, henchmen):
    build_roster(warband, henchmen=henchmen)
    with assert_max_queries(12):
        response = browser_client.get(sheet_url(warband))
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('data-testid="hero-card"') == 3
    assert "Hoja de Control de Banda" in page


def test_sheet_marks_changed_characteristics_and_advances(browser_client, warband):
    captain = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    services.fighter_apply_profile_change(fighter=captain, characteristic="s", delta=1)
    services.fighter_add_experience(fighter=captain, amount=4)
    page = browser_client.get(sheet_url(warband)).content.decode()
    assert 'class="changed"' in page and "4↑" in page
    assert 'data-testid="advances-due"' in page


def test_hire_and_buy_through_the_page(browser_client, warband):
    hire_dialog = browser_client.get(reverse("warband-hire", args=[warband.pk]))
    assert 'data-testid="hire-dialog"' in hire_dialog.content.decode()
    captain_type = fighter_type("capitan-mercenario")
    preview = browser_client.get(
        reverse("warband-hire-preview", args=[warband.pk]),
        {"fighter_type": captain_type.pk, "count": 1},
    ).content.decode()
    assert "60 co" in preview and "440 co" in preview
    response = browser_client.post(
        reverse("warband-hire", args=[warband.pk]),
        {"fighter_type": captain_type.pk, "name": "Bardo", "count": 1, "version": warband.version},
    )
    assert response["Location"] == sheet_url(warband)
    captain = Fighter.objects.get(name="Bardo")

    buy_url = reverse("warband-buy", args=[warband.pk])
    dialog = browser_client.get(buy_url, {"fighter": captain.pk}).content.decode()
    assert "Sword — 10 co" in dialog and ">Flail — " not in dialog
    entry = captain.fighter_type.equipment_list.entries.get(equipment__slug="espada")
    quote = browser_client.get(
        reverse("warband-buy-preview", args=[warband.pk]),
        {"fighter": captain.pk, "entry": entry.pk},
    ).content.decode()
    assert "430 co" in quote
    browser_client.post(buy_url, {"fighter": captain.pk, "entry": entry.pk})
    assert captain.equipment.get().equipment.slug == "espada"
    page = browser_client.get(sheet_url(warband)).content.decode()
    assert "430 co" in page and "Bought Sword." in page


def test_a_refusal_is_shown_on_the_sheet(browser_client, warband):
    captain_type = fighter_type("capitan-mercenario")
    for name in ("Uno", "Dos"):
        browser_client.post(
            reverse("warband-hire", args=[warband.pk]),
            {"fighter_type": captain_type.pk, "name": name, "count": 1},
        )
    page = browser_client.get(sheet_url(warband)).content.decode()
    assert "exactly one leader" in page
    assert Fighter.objects.filter(warband=warband).count() == 1


def test_a_stale_form_is_refused(browser_client, warband):
    stale = warband.version
    services.warband_rename(warband=warband, name="Nuevo")
    browser_client.post(
        reverse("warband-edit", args=[warband.pk]), {"name": "Viejo", "notes": "", "version": stale}
    )
    assert Warband.objects.get(pk=warband.pk).name == "Nuevo"
    assert "changed elsewhere" in browser_client.get(sheet_url(warband)).content.decode()


def test_sell_stash_assign_dismiss_through_the_page(browser_client, warband):
    captain = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    champion = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("campeon-mercenario"), name="Brand"
    )
    sword = services.equipment_buy(warband=warband, equipment=equipment("espada"), fighter=captain)
    action = "warband-item-action"
    browser_client.post(reverse(action, args=[warband.pk, sword.pk, "stash"]))
    dialog = browser_client.get(reverse(action, args=[warband.pk, sword.pk, "assign"]))
    assert "Brand" in dialog.content.decode()
    browser_client.post(
        reverse(action, args=[warband.pk, sword.pk, "assign"]), {"target": f"f-{champion.pk}"}
    )
    assert champion.equipment.get().pk == sword.pk
    browser_client.post(reverse(action, args=[warband.pk, sword.pk, "sell"]), {"confirmed": "1"})
    assert not champion.equipment.exists()
    browser_client.post(
        reverse("warband-fighter-action", args=[warband.pk, champion.pk, "retire"]),
        {"confirmed": "1"},
    )
    assert Fighter.objects.get(pk=champion.pk).status == "retired"


def test_other_players_get_404(client, make_user, warband):
    client.force_login(make_user("otro"))
    assert client.get(sheet_url(warband)).status_code == 404
    response = client.post(reverse("warband-edit", args=[warband.pk]), {"name": "Mía"})
    assert response.status_code == 404
    assert Warband.objects.get(pk=warband.pk).name == "Los Lobos"


def test_print_pdf_and_share(browser_client, client, warband):
    build_roster(warband, henchmen=5)
    printed = browser_client.get(reverse("warband-print", args=[warband.pk])).content.decode()
    # The A4 rules are a stylesheet of their own (no inline style under the site's CSP).
    assert 'href="/static/css/print.css"' in printed and 'data-testid="print-sheet"' in printed
    assert "@page { size: A4" in Path(finders.find("css/print.css")).read_text()
    pdf = browser_client.get(reverse("warband-pdf", args=[warband.pk]))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    services.warband_update(warband=warband, expected_version=None, shared=True)
    shared = client.get(reverse("warband-share", args=[warband.share_token])).content.decode()
    assert "Los Lobos" in shared and "Read-only" in shared
    assert '<form method="post" action="/warbands/' not in shared
    assert client.get(reverse("warband-share", args=["nope"])).status_code == 404


def test_ledger_page(browser_client, warband):
    page = browser_client.get(reverse("warband-ledger", args=[warband.pk])).content.decode()
    assert "Starting treasury" in page


def test_export_and_import_through_the_page(browser_client, warband):
    build_roster(warband, henchmen=2)
    exported = browser_client.get(reverse("warband-export", args=[warband.pk]))
    assert exported["Content-Disposition"] == 'attachment; filename="los-lobos.json"'
    data = json.loads(exported.content)
    upload = SimpleUploadedFile("banda.json", exported.content, content_type="application/json")
    response = browser_client.post(reverse("warband-import"), {"file": upload})
    copy = Warband.objects.exclude(pk=warband.pk).get()
    assert response["Location"] == sheet_url(copy)
    assert copy.treasury == data["warband"]["treasury"]
    garbage = SimpleUploadedFile("x.json", b"not json")
    browser_client.post(reverse("warband-import"), {"file": garbage})
    assert Warband.objects.count() == 2


def test_admin_catalogue_and_rosters(client, make_user, warband):
    admin = make_user("organiser", is_staff=True, is_superuser=True)
    client.force_login(admin)
    for name in (
        "warbandtype",
        "fightertype",
        "equipment",
        "equipmentlist",
        "skilllist",
        "race",
        "contentpack",
        "warband",
        "ledgerentry",
    ):
        assert client.get(reverse(f"admin:warbands_{name}_changelist")).status_code == 200
    wt = warband.warband_type
    assert client.get(reverse("admin:warbands_warbandtype_change", args=[wt.pk])).status_code == 200
    assert (
        client.get(reverse("admin:warbands_warband_change", args=[warband.pk])).status_code == 200
    )
    assert client.get(reverse("admin:warbands_contentpack_import")).status_code == 200
    swords = Equipment.objects.filter(slug__in=["espada", "hacha"])
    exported = client.post(
        reverse("admin:warbands_equipment_changelist"),
        {"action": "export_yaml", "_selected_action": [e.pk for e in swords]},
    )
    data = yaml.safe_load(exported.content)
    assert data["equipment"]["espada"]["cost"] == 10
    exported = client.post(
        reverse("admin:warbands_warbandtype_changelist"),
        {"action": "export_json", "_selected_action": [wt.pk]},
    )
    assert (
        "capitan-mercenario"
        in json.loads(exported.content)["warband_types"][wt.slug]["fighter_types"]
    )
