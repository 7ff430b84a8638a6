"""Who may change what: the whole matrix of people × admin pages.

Organising a campaign gives the organisers' site (``/organisers/``) for that campaign only; the
catalogue that every league shares (``/admin/warbands/…``, the pack import) needs the content
editors' permissions or a superuser. The "staff organiser" is a user the old code made staff
for organising and who kept ``is_staff``: staff status alone opens nothing of the catalogue.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import pytest
from django.apps import apps as django_apps
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.sql import emit_post_migrate_signal
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from battles.campaigns import services
from battles.models import Campaign, Membership
from tests.battles.factories import league_content, quick_user  # noqa: F401 - the fixture
from tests.warbands.fixtures import _content_preloaded  # noqa: F401 - the fixture
from warbands.content_editors import (
    GROUP,
    catalogue_models,
    content_editor_codenames,
    content_editors_sync,
)
from warbands.content_loader import DEFAULT_PACK_PATH
from warbands.models import (
    ContentPack,
    Equipment,
    FighterType,
    HiredSword,
    Race,
    Skill,
    WarbandType,
)

pytestmark = pytest.mark.django_db

content_editors_0003 = importlib.import_module("warbands.migrations.0003_content_editors")
hired_swords_0008 = importlib.import_module("warbands.migrations.0008_content_editors_hired_swords")
organiser_powers = importlib.import_module("battles.migrations.0004_organiser_powers")

ROLES = (
    "player",
    "organiser_a",
    "organiser_b",
    "staff_organiser_a",
    "content_editor",
    "superuser",
)
ADMIN_LOGIN = "/admin/login/"
ORGANISERS_LOGIN = "/organisers/login/"
ORGANISERS_INDEX = "/organisers/"


@dataclass
class World:
    users: dict
    campaign_a: Campaign
    campaign_b: Campaign


@pytest.fixture
def world(league_content) -> World:  # noqa: F811 - the fixture imported above
    # A transactional test elsewhere may have flushed the migration's group: make it again,
    # with the code that keeps it after every migrate.
    content_editors_sync()
    users = {
        "player": quick_user("player"),
        "organiser_a": quick_user("organiser-a"),
        "organiser_b": quick_user("organiser-b"),
        "staff_organiser_a": quick_user("staff-organiser-a", is_staff=True),
        "content_editor": quick_user("editor", is_staff=True),
        "superuser": quick_user("root", is_staff=True, is_superuser=True),
    }
    users["content_editor"].groups.add(Group.objects.get(name=GROUP))
    campaign_a = services.campaign_create(organiser=users["organiser_a"], name="Liga A")
    services.campaign_add_organiser(
        campaign=campaign_a, by=users["organiser_a"], username="staff-organiser-a"
    )
    campaign_b = services.campaign_create(organiser=users["organiser_b"], name="Liga B")
    return World(users=users, campaign_a=campaign_a, campaign_b=campaign_b)


def client_for(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def pack_files(dagger_cost: int) -> list[SimpleUploadedFile]:
    files = []
    for path in sorted(DEFAULT_PACK_PATH.glob("*.yaml")):
        body = path.read_bytes()
        if path.name == "equipment.yaml":
            old = b"daga: {name: Daga, kind: melee, cost: 2,"
            assert old in body
            body = body.replace(
                old, f"daga: {{name: Daga, kind: melee, cost: {dagger_cost},".encode()
            )
        files.append(SimpleUploadedFile(path.name, body))
    return files


def outcome(response) -> tuple[int, str | None]:
    """The status, and for a redirect where it leads (without its query)."""
    location = response.get("Location")
    return response.status_code, location.split("?")[0] if location else None


# --- the catalogue: every page needs the content editors' permissions --------------------------
CATALOGUE_DENIED_NOT_STAFF = (302, ADMIN_LOGIN)
CATALOGUE = {
    "player": CATALOGUE_DENIED_NOT_STAFF,
    "organiser_a": CATALOGUE_DENIED_NOT_STAFF,
    "organiser_b": CATALOGUE_DENIED_NOT_STAFF,
    "staff_organiser_a": (403, None),
    "content_editor": (200, None),
    "superuser": (200, None),
}
CATALOGUE_PAGES = {
    "equipment list": lambda: reverse("admin:warbands_equipment_changelist"),
    "equipment page": lambda: reverse(
        "admin:warbands_equipment_change", args=[Equipment.objects.get(slug="daga").pk]
    ),
    "warband types": lambda: reverse("admin:warbands_warbandtype_changelist"),
    "warband type page": lambda: reverse(
        "admin:warbands_warbandtype_change", args=[WarbandType.objects.order_by("pk").first().pk]
    ),
    "fighter types": lambda: reverse("admin:warbands_fightertype_changelist"),
    "fighter type page": lambda: reverse(
        "admin:warbands_fightertype_change", args=[FighterType.objects.order_by("pk").first().pk]
    ),
    "skills": lambda: reverse("admin:warbands_skill_changelist"),
    "skill page": lambda: reverse(
        "admin:warbands_skill_change", args=[Skill.objects.order_by("pk").first().pk]
    ),
    "races": lambda: reverse("admin:warbands_race_changelist"),
    "race page": lambda: reverse(
        "admin:warbands_race_change", args=[Race.objects.order_by("pk").first().pk]
    ),
    "hired swords": lambda: reverse("admin:warbands_hiredsword_changelist"),
    "hired sword page": lambda: reverse(
        "admin:warbands_hiredsword_change", args=[HiredSword.objects.order_by("pk").first().pk]
    ),
    "content packs": lambda: reverse("admin:warbands_contentpack_changelist"),
    "pack import": lambda: reverse("admin:warbands_contentpack_import"),
}


@pytest.mark.parametrize("page", CATALOGUE_PAGES)
@pytest.mark.parametrize("role", ROLES)
def test_catalogue_pages(world, role, page):
    response = client_for(world.users[role]).get(CATALOGUE_PAGES[page]())
    assert outcome(response) == CATALOGUE[role]


@pytest.mark.parametrize("role", ROLES)
def test_pack_import_post_changes_prices_only_for_content_editors(world, role):
    response = client_for(world.users[role]).post(
        reverse("admin:warbands_contentpack_import"), {"files": pack_files(dagger_cost=200)}
    )
    allowed = role in ("content_editor", "superuser")
    expected = (
        (302, reverse("admin:warbands_contentpack_changelist")) if allowed else CATALOGUE[role]
    )
    assert outcome(response) == expected
    assert Equipment.objects.get(slug="daga").cost == (200 if allowed else 2)


@pytest.mark.parametrize("role", ROLES)
def test_catalogue_edit_post_changes_prices_only_for_content_editors(world, role):
    dagger = Equipment.objects.get(slug="daga")
    url = reverse("admin:warbands_equipment_change", args=[dagger.pk])
    form = {
        "slug": dagger.slug, "name": dagger.name, "description": dagger.description,
        "kind": dagger.kind, "cost": 200, "cost_dice": "", "rarity": "", "two_handed": "",
        "range_cm": "", "strength": "", "armour_save": "", "rules": '{"first_free": true}',
    }  # fmt: skip
    response = client_for(world.users[role]).post(url, form)
    allowed = role in ("content_editor", "superuser")
    if allowed:
        assert response.status_code == 302, response.context["adminform"].form.errors
    else:
        assert outcome(response) == CATALOGUE[role]
    assert Equipment.objects.get(slug="daga").cost == (200 if allowed else 2)


def test_the_import_link_shows_only_with_the_permission(world):
    link = reverse("admin:warbands_contentpack_import")
    editor_page = client_for(world.users["content_editor"]).get(
        reverse("admin:warbands_contentpack_changelist")
    )
    assert link in editor_page.content.decode()
    viewer = quick_user("viewer", is_staff=True)
    viewer.user_permissions.add(
        *Group.objects.get(name=GROUP).permissions.filter(codename="view_contentpack")
    )
    viewer_page = client_for(viewer).get(reverse("admin:warbands_contentpack_changelist"))
    assert viewer_page.status_code == 200 and link not in viewer_page.content.decode()
    assert client_for(viewer).get(link).status_code == 403


def test_a_negative_cost_is_a_form_error_not_a_server_error(world):
    revision = ContentPack.objects.get(slug="annuminas").version
    response = client_for(world.users["content_editor"]).post(
        reverse("admin:warbands_contentpack_import"), {"files": pack_files(dagger_cost=-500)}
    )
    assert response.status_code == 200
    errors = response.context["form"].non_field_errors()
    assert any("daga" in error and "cost" in error for error in errors), errors
    assert Equipment.objects.get(slug="daga").cost == 2, "nothing was written"
    assert ContentPack.objects.get(slug="annuminas").version == revision


def test_a_malformed_pack_is_a_form_error_not_a_server_error(world):
    files = pack_files(dagger_cost=2)
    broken = [f for f in files if f.name != "equipment.yaml"]
    broken.append(SimpleUploadedFile("equipment.yaml", b"equipment:\n  daga: {kind: melee}\n"))
    response = client_for(world.users["content_editor"]).post(
        reverse("admin:warbands_contentpack_import"), {"files": broken}
    )
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert Equipment.objects.get(slug="daga").cost == 2


# --- the organisers' site: each organiser his own campaigns --------------------------------------
SITE_REFUSED = (302, ORGANISERS_LOGIN)  # and the login page refuses a signed-in user (403)
NOT_YOURS = (302, ORGANISERS_INDEX)  # Django's admin: "doesn't exist", back to the index
ORGANISERS_SITE = {
    # role: (index, campaign A's page, campaign B's page)
    "player": (SITE_REFUSED, SITE_REFUSED, SITE_REFUSED),
    "organiser_a": ((200, None), (200, None), NOT_YOURS),
    "organiser_b": ((200, None), NOT_YOURS, (200, None)),
    "staff_organiser_a": ((200, None), (200, None), NOT_YOURS),
    "content_editor": (SITE_REFUSED, SITE_REFUSED, SITE_REFUSED),
    "superuser": ((200, None), (200, None), (200, None)),
}


@pytest.mark.parametrize("role", ROLES)
def test_organisers_site(world, role):
    client = client_for(world.users[role])
    seen = (
        outcome(client.get(reverse("organisers:index"))),
        outcome(
            client.get(reverse("organisers:battles_campaign_change", args=[world.campaign_a.pk]))
        ),
        outcome(
            client.get(reverse("organisers:battles_campaign_change", args=[world.campaign_b.pk]))
        ),
    )
    assert seen == ORGANISERS_SITE[role]
    if seen[0] == SITE_REFUSED:
        assert client.get(reverse("organisers:index"), follow=True).status_code == 403


def _campaign_form(campaign: Campaign, **changes) -> dict:
    form = {
        "name": campaign.name, "description": campaign.description, "preset": campaign.preset,
        "starting_treasury": campaign.starting_treasury, "rating_cap": campaign.rating_cap or "",
        "max_fighter_type_copies": campaign.max_fighter_type_copies or "",
        "points_win": campaign.points_win, "points_draw": campaign.points_draw,
        "points_loss": campaign.points_loss, "points_bye": campaign.points_bye,
        "optional_rules": "[]", "tables": "{}", "table_size": campaign.table_size,
        "game_length": campaign.game_length,
        "memberships-TOTAL_FORMS": 0, "memberships-INITIAL_FORMS": 0,
        "rounds-TOTAL_FORMS": 0, "rounds-INITIAL_FORMS": 0,
    }  # fmt: skip
    form.update(changes)
    return form


HOUSE_TABLES = {"exploration": [{"min": 1, "max": None, "result": 1}]}
HOUSE_TABLES_JSON = '{"exploration": [{"min": 1, "max": null, "result": 1}]}'
CHANGES_A = {"organiser_a", "staff_organiser_a", "superuser"}


@pytest.mark.parametrize("role", ROLES)
def test_house_rule_tables_in_the_organisers_site(world, role):
    url = reverse("organisers:battles_campaign_change", args=[world.campaign_a.pk])
    response = client_for(world.users[role]).post(
        url, _campaign_form(world.campaign_a, tables=HOUSE_TABLES_JSON)
    )
    expected = {
        "player": SITE_REFUSED,
        "organiser_b": NOT_YOURS,
        "content_editor": SITE_REFUSED,
    }.get(role, (302, reverse("organisers:battles_campaign_changelist")))
    assert outcome(response) == expected
    world.campaign_a.refresh_from_db()
    assert world.campaign_a.tables == (HOUSE_TABLES if role in CHANGES_A else {})


@pytest.mark.parametrize("role", ROLES)
def test_house_rule_tables_through_the_api(world, role):
    api = APIClient()
    api.force_authenticate(world.users[role])
    response = api.patch(
        f"/api/v1/campaigns/{world.campaign_a.slug}/", {"tables": HOUSE_TABLES}, format="json"
    )
    # A draft campaign is invisible to those outside it (404); its organisers change it.
    assert response.status_code == (200 if role in CHANGES_A else 404), response.content
    world.campaign_a.refresh_from_db()
    assert world.campaign_a.tables == (HOUSE_TABLES if role in CHANGES_A else {})


# --- the escalation of the review ----------------------------------------------------------------
def test_a_player_who_creates_a_campaign_through_the_api_gets_no_power_over_the_catalogue(
    league_content,  # noqa: F811 - the fixture imported above
):
    player = quick_user("mallory")
    api = APIClient()
    api.force_authenticate(player)
    response = api.post("/api/v1/campaigns/", {"name": "Liga de Mallory"}, format="json")
    assert response.status_code == 201
    player.refresh_from_db()
    assert not player.is_staff and not player.is_superuser
    assert Membership.objects.get(user=player).role == Membership.Role.ORGANISER

    client = client_for(player)
    import_url = reverse("admin:warbands_contentpack_import")
    assert outcome(client.get(import_url)) == (302, ADMIN_LOGIN)
    response = client.post(import_url, {"files": pack_files(dagger_cost=-500)})
    assert outcome(response) == (302, ADMIN_LOGIN)
    assert Equipment.objects.get(slug="daga").cost == 2
    assert client.get(reverse("organisers:index")).status_code == 200, "his own campaign"


# --- the migrations --------------------------------------------------------------------------
def test_the_content_editors_group_holds_exactly_the_catalogue_permissions(db):
    Group.objects.filter(name=GROUP).delete()
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")  # what migrate sends
    group = Group.objects.get(name=GROUP)
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert "import_contentpack" in codenames and "change_equipment" in codenames
    assert {"add_hiredsword", "change_hiredsword", "delete_hiredsword"} <= codenames
    assert not {"change_warband", "change_ledgerentry", "change_campaign"} & codenames
    assert codenames == set(content_editor_codenames())


def test_every_catalogue_model_is_the_content_editors_to_edit():
    """A catalogue model added later is covered without a new list to remember."""
    names = {model._meta.model_name for model in catalogue_models()}
    assert {"contentpack", "equipment", "fightertype", "hiredsword"} <= names
    assert not {"warband", "fighter", "ledgerentry"} & names
    for name in names:
        assert {f"change_{name}", f"view_{name}"} <= set(content_editor_codenames())


def test_the_migrations_give_an_old_group_the_hired_swords(db):
    Group.objects.filter(name=GROUP).delete()
    content_editors_0003.create_group(django_apps, None)  # the group as it was made
    group = Group.objects.get(name=GROUP)
    assert not group.permissions.filter(codename="change_hiredsword").exists()
    hired_swords_0008.grant(django_apps, None)
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert codenames == set(content_editor_codenames())


def test_the_migration_demotes_only_those_staff_by_organising(league_content):  # noqa: F811
    organiser = quick_user("old-organiser", is_staff=True)
    campaign = services.campaign_create(organiser=organiser, name="Liga antigua")
    editor_organiser = quick_user("editor-organiser", is_staff=True)
    editor_organiser.groups.add(Group.objects.get_or_create(name="Otros")[0])
    services.campaign_add_organiser(campaign=campaign, by=organiser, username="editor-organiser")
    staff_only = quick_user("staff-only", is_staff=True)
    root = quick_user("root", is_staff=True, is_superuser=True)
    services.campaign_add_organiser(campaign=campaign, by=organiser, username="root")

    organiser_powers.demote_organisers(django_apps, None)

    for user, staff in (
        (organiser, False),
        (editor_organiser, True),
        (staff_only, True),
        (root, True),
    ):
        user.refresh_from_db()
        assert user.is_staff is staff, user.username


def test_the_campaign_page_leads_its_organisers_to_their_site(world):
    page = client_for(world.users["organiser_a"]).get(
        reverse("campaign-detail", args=[world.campaign_a.slug])
    )
    link = reverse("organisers:battles_campaign_change", args=[world.campaign_a.pk])
    assert page.status_code == 200 and link in page.content.decode()
    assert client_for(world.users["organiser_a"]).get(link).status_code == 200


# --- content packs: their authors edit them; content editors keep the default pack -------------
PACK_YAML = "equipment_lists:\n  lista: {name: Lista, items: [daga]}\n"
PACK_EDITS = {
    "organiser_a's pack": {"organiser_a"},
    "the default pack": {"content_editor", "superuser"},
}


def _matrix_pack(world, which: str) -> ContentPack:
    from warbands.packs import services as packs  # noqa: PLC0415 - only these tests need it

    if which == "the default pack":
        return ContentPack.objects.get(owner=None, slug="annuminas")
    return packs.pack_create(owner=world.users["organiser_a"], name="Pack A", visibility="public")


@pytest.mark.parametrize("which", PACK_EDITS)
@pytest.mark.parametrize("role", ROLES)
def test_content_packs_through_the_api(world, role, which):
    pack = _matrix_pack(world, which)
    client = APIClient()
    client.force_authenticate(world.users[role])
    response = client.post(
        f"/api/v1/packs/{pack.slug}/draft/", {"yaml": PACK_YAML, "dry_run": True}, format="json"
    )
    allowed = role in PACK_EDITS[which]
    assert response.status_code == (200 if allowed else 403)
    publish = client.post(f"/api/v1/packs/{pack.slug}/publish/")
    assert publish.status_code in ((201, 400, 409) if allowed else (403,))
    assert client.get(f"/api/v1/packs/{pack.slug}/").status_code == 200


@pytest.mark.parametrize("which", PACK_EDITS)
@pytest.mark.parametrize("role", ROLES)
def test_content_pack_pages(world, role, which):
    pack = _matrix_pack(world, which)
    before = list(pack.versions.values_list("pk", "document"))
    response = client_for(world.users[role]).post(
        f"/packs/{pack.slug}/import/", {"text": PACK_YAML, "apply": "1"}
    )
    allowed = role in PACK_EDITS[which]
    assert response.status_code == (302 if allowed else 403)
    if not allowed:
        assert list(pack.versions.values_list("pk", "document")) == before


# The draft's entries one by one: the pages and the API, for every entry-edit route.
EXPLORATION = "- {min: 1, max: 20, result: 1}\n- {min: 21, max: null, result: 2}\n"


def _entry_routes(pack: ContentPack) -> list[tuple[str, str, dict]]:
    """(method, address, body) of each entry-edit route, on an entry the draft holds."""
    from warbands.packs import services as packs  # noqa: PLC0415 - only these tests need it

    draft = packs.pack_draft(pack=pack, by=pack.owner or _an_editor())
    if "equipment" not in draft.document:
        draft.document["equipment"] = {"lanza": {"name": "Lanza", "kind": "melee", "cost": 5}}
        draft.save(update_fields=["document"])
    type_slug, row = next(iter(draft.document.get("warband_types", {}).items()), (None, None))
    pages = f"/packs/{pack.slug}/draft"
    api = f"/api/v1/packs/{pack.slug}/draft"
    entry = next(iter(draft.document["equipment"]))
    item = {"name": "Lanza", "kind": "melee", "cost": 6}
    routes = [
        ("get", f"{pages}/equipment/", {}),
        ("post", f"{pages}/equipment/", {"slug": "nueva", **item, "apply": "1"}),
        ("get", f"{pages}/equipment/{entry}/", {}),
        ("post", f"{pages}/equipment/{entry}/", {**item, "apply": "1"}),
        ("post", f"{pages}/equipment/{entry}/delete/", {"confirmed": "1"}),
        ("put", f"{api}/equipment/{entry}/", item),
        ("delete", f"{api}/equipment/{entry}/", {}),
        # A campaign table: its page, "back to the default", and the API's entry endpoint.
        ("get", f"{pages}/tables/exploration/", {}),
        ("post", f"{pages}/tables/exploration/", {"rows": EXPLORATION, "apply": "1"}),
        ("post", f"{pages}/tables/exploration/default/", {"confirmed": "1"}),
        ("put", f"{api}/tables/exploration/", [{"min": 1, "max": None, "result": 1}]),
        ("delete", f"{api}/tables/exploration/", {}),
    ]
    if type_slug:
        fighter = next(iter(row["fighter_types"]))
        child = f"warband_types/{type_slug}/fighter_types"
        routes += [
            ("get", f"{pages}/{child}/", {}),
            ("get", f"{pages}/{child}/{fighter}/", {}),
            ("post", f"{pages}/{child}/{fighter}/delete/", {"confirmed": "1"}),
        ]
    return routes


def _an_editor():
    return Group.objects.get(name=GROUP).user_set.first()


@pytest.mark.parametrize("which", PACK_EDITS)
@pytest.mark.parametrize("role", ROLES)
def test_content_pack_entry_routes(world, role, which):
    from warbands.packs import services as packs  # noqa: PLC0415 - only these tests need it

    pack = _matrix_pack(world, which)
    if which != "the default pack":
        packs.pack_import(
            pack=pack,
            by=pack.owner,
            text=PACK_YAML + "equipment:\n  lanza: {name: Lanza, kind: melee, cost: 5}\n",
            apply=True,
        )
    routes = _entry_routes(pack)
    before = list(pack.versions.values_list("pk", "document"))
    allowed = role in PACK_EDITS[which]
    user = world.users[role]
    api = APIClient()
    api.force_authenticate(user)
    for method, url, body in routes:
        if url.startswith("/api/"):
            response = getattr(api, method)(url, body, format="json")
        else:
            response = getattr(client_for(user), method)(url, body)
        if allowed:
            assert response.status_code in (200, 302, 400, 404, 409), (method, url)
        else:
            assert response.status_code == 403, (method, url, response.status_code)
    if not allowed:
        assert list(pack.versions.values_list("pk", "document")) == before
