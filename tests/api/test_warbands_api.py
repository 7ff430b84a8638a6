import pytest
from django.db.models import Sum
from rest_framework.test import APIClient

from tests.warbands.fixtures import *  # noqa: F403 - the warband fixtures
from tests.warbands.fixtures import build_roster, equipment, fighter_type
from warbands import services
from warbands.models import EquipmentItem, Fighter, Warband

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def client(user):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    return api


@pytest.fixture
def stranger_client(db):
    from django.contrib.auth import get_user_model

    api = APIClient()
    api.force_authenticate(get_user_model().objects.create(username="stranger"))
    return api


def assert_error(response, status, code=None):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and {"code", "message", "fields"} <= set(body["error"])
    if code:
        assert body["error"]["code"] == code
    return body["error"]


# --- catalogue -----------------------------------------------------------------------------------


def test_catalogue_is_readable_anonymously(content, api_client):
    index = api_client.get("/api/v1/catalogue/")
    assert index.status_code == 200 and "warband_types" in index.json()
    types = api_client.get("/api/v1/catalogue/warband-types/").json()
    assert types["count"] == 11
    elves = api_client.get("/api/v1/catalogue/warband-types/elfos-de-rivendel/").json()
    assert {ft["slug"] for ft in elves["fighter_types"]} >= {"senor-elfo", "guerrero-elfo"}


def test_catalogue_filters(content, api_client):
    leaders = api_client.get(
        "/api/v1/catalogue/fighter-types/", {"warband_type": "orcos-de-angmar", "role": "leader"}
    ).json()
    assert [ft["slug"] for ft in leaders["results"]] == ["cabecilla-orco"]
    armour = api_client.get("/api/v1/catalogue/equipment/", {"kind": "armour", "rare": "true"})
    assert {item["slug"] for item in armour.json()["results"]} == {
        "armadura-enana",
        "armadura-lacada-del-este",
        "armadura-negra-de-angmar",
        "cota-de-mithril",
    }
    skills = api_client.get("/api/v1/catalogue/skills/", {"skill_list": "elfos"}).json()
    assert skills["count"] == 3
    assert api_client.post("/api/v1/catalogue/equipment/", {}).status_code in (401, 403, 405)


def test_catalogue_list_has_a_fixed_query_count(content, api_client, assert_max_queries):
    with assert_max_queries(8):
        assert api_client.get("/api/v1/catalogue/warband-types/").status_code == 200


# --- warbands ---------------------------------------------------------------------------------


def test_create_list_retrieve(content, client):
    response = client.post(
        "/api/v1/warbands/", {"name": "Los Lobos", "warband_type": "mercenarios-de-rhovanion"}
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["treasury"], body["version"]) == (500, 2)
    assert response["ETag"] == f'"warband-{body["id"]}-v2"'
    listing = client.get("/api/v1/warbands/").json()
    assert [w["name"] for w in listing["results"]] == ["Los Lobos"]
    detail = client.get(f"/api/v1/warbands/{body['id']}/")
    assert detail.json()["name"] == "Los Lobos"
    again = client.get(f"/api/v1/warbands/{body['id']}/", HTTP_IF_NONE_MATCH=detail["ETag"])
    assert again.status_code == 304


def test_create_with_bad_input(content, client):
    error = assert_error(client.post("/api/v1/warbands/", {"name": "", "warband_type": "x"}), 400)
    assert {"name", "warband_type"} <= set(error["fields"])
    assert Warband.objects.count() == 0


def test_anonymous_cannot_touch_warbands(content, api_client, warband):
    assert api_client.get("/api/v1/warbands/").status_code in (401, 403)
    assert api_client.get(f"/api/v1/warbands/{warband.pk}/sheet/").status_code in (401, 403)


def test_others_get_404(warband, stranger_client):
    assert_error(stranger_client.get(f"/api/v1/warbands/{warband.pk}/"), 404)
    assert_error(stranger_client.get(f"/api/v1/warbands/{warband.pk}/sheet/"), 404)
    assert_error(
        stranger_client.patch(f"/api/v1/warbands/{warband.pk}/", {"name": "Mío", "version": 2}),
        404,
    )
    assert_error(
        stranger_client.post(
            f"/api/v1/warbands/{warband.pk}/fighters/",
            {"fighter_type": "capitan-mercenario", "name": "X"},
        ),
        404,
    )
    assert stranger_client.get("/api/v1/warbands/").json()["count"] == 0
    assert Warband.objects.get(pk=warband.pk).name == "Los Lobos"


def test_update_needs_the_current_version(warband, client):
    url = f"/api/v1/warbands/{warband.pk}/"
    assert_error(client.patch(url, {"name": "Sin versión"}), 400)
    ok = client.patch(url, {"name": "Los Osos", "version": warband.version})
    assert ok.status_code == 200 and ok.json()["version"] == warband.version + 1
    stale = client.patch(url, {"name": "Tarde", "version": warband.version})
    error = assert_error(stale, 409, "stale_version")
    assert error["version"] == warband.version + 1
    assert Warband.objects.get(pk=warband.pk).name == "Los Osos"


def test_if_match_is_an_alternative_to_version(warband, client):
    url = f"/api/v1/warbands/{warband.pk}/"
    etag = client.get(url)["ETag"]
    ok = client.patch(url, {"notes": "Con ETag"}, HTTP_IF_MATCH=etag)
    assert ok.status_code == 200
    assert ok["ETag"] != etag
    assert_error(client.patch(url, {"notes": "Viejo"}, HTTP_IF_MATCH=etag), 409, "stale_version")
    assert Warband.objects.get(pk=warband.pk).notes == "Con ETag"


def test_stale_version_on_a_purchase_changes_nothing(warband, client):
    version = warband.version
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    response = client.post(
        f"/api/v1/warbands/{warband.pk}/fighters/",
        {"fighter_type": "campeon-mercenario", "name": "Tarde", "version": version},
    )
    assert_error(response, 409, "stale_version")
    assert Warband.objects.get(pk=warband.pk).treasury == 440
    assert not Fighter.objects.filter(name="Tarde").exists()


def test_delete(warband, client):
    assert client.delete(f"/api/v1/warbands/{warband.pk}/").status_code == 204
    assert not Warband.objects.filter(pk=warband.pk).exists()


# --- fighters and equipment ---------------------------------------------------------------------


def test_hire_buy_sell_stash_flow(warband, client):
    base = f"/api/v1/warbands/{warband.pk}"
    hired = client.post(
        f"{base}/fighters/", {"fighter_type": "capitan-mercenario", "name": "Bardo"}
    )
    assert hired.status_code == 201, hired.content
    captain = hired.json()["fighter"]
    assert hired.json()["warband"]["treasury"] == 440
    group = client.post(
        f"{base}/fighters/",
        {"fighter_type": "guerrero-mercenario", "name": "Lanzas", "count": 3},
    ).json()["group"]
    assert len(group["members"]) == 3

    bought = client.post(f"/api/v1/fighters/{captain['id']}/equipment/", {"item": "espada"})
    assert bought.status_code == 201 and bought.json()["warband"]["treasury"] == 365 - 10
    sword = bought.json()["item"]["id"]
    spears = client.post(f"/api/v1/groups/{group['id']}/equipment/", {"item": "lanza"})
    assert spears.json()["warband"]["treasury"] == 355 - 30

    not_allowed = client.post(f"/api/v1/fighters/{captain['id']}/equipment/", {"item": "mayal"})
    assert "not in the equipment list" in assert_error(not_allowed, 400)["message"]

    stashed = client.post(f"/api/v1/fighters/{captain['id']}/equipment/{sword}/stash/")
    assert stashed.status_code == 200 and stashed.json()["items"][0]["fighter"] is None
    assert client.get(f"{base}/stash/").json()[0]["item"] == "espada"
    sold = client.post(f"{base}/stash/{sword}/sell/")
    assert sold.json()["ledger_entry"]["amount"] == 5
    assert sold.json()["warband"]["treasury"] == 325 + 5

    members = client.get(f"{base}/groups/{group['id']}/").json()["members"]
    assert client.delete(f"{base}/fighters/{members[0]['id']}/").status_code == 200
    renamed = client.patch(f"{base}/fighters/{captain['id']}/", {"name": "Bard"})
    assert renamed.json()["fighter"]["name"] == "Bard"
    warband.refresh_from_db()
    assert warband.treasury == warband.ledger.aggregate(t=Sum("amount"))["t"]


def test_limits_answer_400_in_the_error_shape(warband, client):
    base = f"/api/v1/warbands/{warband.pk}"
    client.post(f"{base}/fighters/", {"fighter_type": "capitan-mercenario", "name": "A"})
    second = client.post(f"{base}/fighters/", {"fighter_type": "capitan-mercenario", "name": "B"})
    error = assert_error(second, 400)
    assert "exactly one leader" in error["message"]
    too_many = client.post(
        f"{base}/fighters/", {"fighter_type": "guerrero-mercenario", "name": "G", "count": 6}
    )
    assert "count" in assert_error(too_many, 400)["fields"]
    wrong_type = client.post(f"{base}/fighters/", {"fighter_type": "guerrero-elfo", "name": "E"})
    assert "cannot be hired" in assert_error(wrong_type, 400)["message"]


def test_assign_from_the_stash(warband, client):
    captain = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    shield = services.equipment_buy(warband=warband, equipment=equipment("escudo"))
    response = client.post(
        f"/api/v1/warbands/{warband.pk}/stash/{shield.pk}/assign/", {"fighter": captain.pk}
    )
    assert response.status_code == 200, response.content
    assert EquipmentItem.objects.get(pk=shield.pk).fighter_id == captain.pk


def test_retire(warband, client):
    champion = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("campeon-mercenario"), name="Brand"
    )
    response = client.post(f"/api/v1/warbands/{warband.pk}/fighters/{champion.pk}/retire/")
    assert response.json()["fighter"]["status"] == "retired"


def test_ledger_endpoint(warband, client):
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    ledger = client.get(f"/api/v1/warbands/{warband.pk}/ledger/").json()
    assert [row["reason"] for row in ledger["results"]] == ["hire", "starting_treasury"]
    assert ledger["results"][0]["source_type"] == "fighter"


def test_export_import_round_trip(warband, client):
    build_roster(warband, henchmen=4)
    exported = client.get(f"/api/v1/warbands/{warband.pk}/export/").json()
    assert exported["format"] == "annuminas.warband" and exported["format_version"] == 1
    imported = client.post("/api/v1/warbands/import/", exported, format="json")
    assert imported.status_code == 201, imported.content
    again = client.get(f"/api/v1/warbands/{imported.json()['id']}/export/").json()
    exported.pop("exported_at")
    again.pop("exported_at")
    assert again == exported
    bad = client.post("/api/v1/warbands/import/", {"format": "x"}, format="json")
    assert "not an Annúminas warband" in assert_error(bad, 400)["message"]


# --- the sheet in one response, fixed queries ---------------------------------------------------


@pytest.mark.parametrize("henchmen", [0, 12])
def test_sheet_query_count_is_fixed(warband, client, assert_max_queries, henchmen):
    build_roster(warband, henchmen=henchmen)
    fighters = Fighter.objects.filter(warband=warband).count()
    assert fighters == 3 + henchmen  # 3 and 15 warriors
    with assert_max_queries(9):
        response = client.get(f"/api/v1/warbands/{warband.pk}/sheet/")
    assert response.status_code == 200
    body = response.json()
    assert len(body["heroes"]) == 3
    assert sum(len(g["members"]) for g in body["groups"]) == henchmen
    assert body["heroes"][0]["is_leader"]
    assert body["stash"][0]["item"] == "escudo"
    assert body["warrior_count"] == fighters


def _refs(node, found: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.add(ref.rsplit("/", 1)[-1])
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def test_schema_of_the_warband_endpoints_is_valid(client):
    """The warbands part of /api/v1/schema/ (its paths and every component they use)."""
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    mine = ("/api/v1/catalogue/", "/api/v1/warbands/", "/api/v1/fighters/", "/api/v1/groups/")
    paths = {path: item for path, item in schema["paths"].items() if path.startswith(mine)}
    assert "/api/v1/warbands/{id}/sheet/" in paths
    assert "/api/v1/catalogue/warband-types/" in paths
    assert all(operation.get("summary") for item in paths.values() for operation in item.values())
    components = schema["components"]["schemas"]
    needed: set[str] = set()
    _refs(paths, needed)
    while True:
        more: set[str] = set()
        _refs([components[name] for name in needed], more)
        if more <= needed:
            break
        needed |= more
    from openapi_spec_validator import validate

    validate(
        {
            **schema,
            "paths": paths,
            "components": {
                **schema["components"],
                "schemas": {name: components[name] for name in needed},
            },
        }
    )


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(fighters=[1]), "fighters.0.non_field_errors"),
        (lambda d: d.update(ledger=[{"amount": "x", "reason": "import"}]), "ledger.0.amount"),
        (lambda d: d.update(ledger=[{"amount": 10**30, "reason": "import"}]), "ledger.0.amount"),
        (lambda d: d["fighters"][0].update(experience="x"), "fighters.0.experience"),
        (lambda d: d["fighters"][0]["profile"].update(ws=99), "fighters.0.profile.ws"),
    ],
)
def test_malformed_imports_are_400_naming_the_field(api_client, user, content, change, field):
    from warbands.models import FighterType, WarbandType
    from warbands.services import fighter_hire, warband_create, warband_export

    warband_type = WarbandType.objects.order_by("pk").first()
    warband = warband_create(owner=user, warband_type=warband_type, name="Exportada")
    fighter_hire(
        warband=warband,
        fighter_type=FighterType.objects.filter(warband_type=warband_type, role="leader").first(),
        name="Jefe",
    )
    data = warband_export(warband=warband)
    change(data)
    api_client.force_authenticate(user)
    before = Warband.objects.count()
    response = api_client.post("/api/v1/warbands/import/", data, format="json")
    assert response.status_code == 400, response.content
    if field:
        assert field in response.json()["error"]["fields"]
    assert Warband.objects.count() == before


def test_import_refuses_profiles_above_the_racial_maximum_and_off_list_items(
    api_client, user, content
):
    from warbands.models import FighterType, WarbandType
    from warbands.services import fighter_hire, warband_create, warband_export

    warband_type = WarbandType.objects.get(slug="mercenarios-de-rhovanion")
    warband = warband_create(owner=user, warband_type=warband_type, name="Exportada")
    fighter_hire(
        warband=warband,
        fighter_type=FighterType.objects.get(warband_type=warband_type, role="leader"),
        name="Jefe",
    )
    api_client.force_authenticate(user)
    too_strong = warband_export(warband=warband)
    too_strong["fighters"][0]["profile"]["s"] = 7  # human maximum: 4
    off_list = warband_export(warband=warband)
    off_list["fighters"][0]["equipment"] = [{"item": "cota-de-mithril", "price": 1}]
    bad_reason = warband_export(warband=warband)
    bad_reason["ledger"][0]["reason"] = "gift"
    before = Warband.objects.count()
    for data in (too_strong, off_list, bad_reason):
        response = api_client.post("/api/v1/warbands/import/", data, format="json")
        assert response.status_code == 400, response.content
    assert Warband.objects.count() == before


def test_an_imported_warband_cannot_join_a_campaign(api_client, user, content):
    from django.core.exceptions import ValidationError

    from battles.campaigns import services as campaigns
    from warbands.models import FighterType, WarbandType
    from warbands.services import fighter_hire, warband_create, warband_export

    warband_type = WarbandType.objects.get(slug="mercenarios-de-rhovanion")
    warband = warband_create(owner=user, warband_type=warband_type, name="Original")
    fighter_hire(
        warband=warband,
        fighter_type=FighterType.objects.get(warband_type=warband_type, role="leader"),
        name="Jefe",
    )
    api_client.force_authenticate(user)
    created = api_client.post(
        "/api/v1/warbands/import/", warband_export(warband=warband), format="json"
    )
    assert created.status_code == 201
    copy = Warband.objects.get(pk=created.json()["id"])
    assert copy.imported and not Warband.objects.get(pk=warband.pk).imported
    campaign = campaigns.campaign_create(organiser=user, name="Liga de prueba")
    campaigns.campaign_transition(campaign=campaign, by=user, state="open")
    with pytest.raises(ValidationError):
        campaigns.campaign_join(
            campaign=campaign, user=user, warband=copy, join_code=campaign.join_code
        )
