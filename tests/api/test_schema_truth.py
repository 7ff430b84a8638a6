"""The OpenAPI schema tells the truth: real responses validate against what it declares.

Each test takes a response that once contradicted /api/v1/schema/ (a null where a string was
declared, an object where a paginated list was declared) and validates it against the schema of
that operation, as schemathesis does in CI (.ci/fuzz).
"""

from __future__ import annotations

import pytest
from openapi_schema_validator import OAS30Validator
from rest_framework.test import APIClient

from battles.campaigns import services
from battles.reports import services as reports
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import first_battle, new_warband, simple_report
from warbands.models import FighterType

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = APIClient().get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def assert_matches(schema: dict, path: str, response, method: str = "get") -> None:
    """``response`` (JSON) is valid for the declared ``method path`` answer of its status."""
    operation = schema["paths"][path][method]
    declared = operation["responses"][str(response.status_code)]
    body_schema = declared["content"]["application/json"]["schema"]
    # Refs like #/components/schemas/X resolve against this document's root.
    document = {**body_schema, "components": schema["components"]}
    errors = sorted(OAS30Validator(document).iter_errors(response.json()), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_battle_by_nobody_yet_matches_the_schema(schema, league):
    """A scheduled battle has no reporter, confirmer or disputer: null, declared nullable."""
    battle = first_battle(league)
    client = client_for(league.organiser)

    detail = client.get(f"/api/v1/battles/{battle.pk}/")
    listing = client.get("/api/v1/battles/")

    assert detail.json()["reported_by"] is None
    assert_matches(schema, "/api/v1/battles/{id}/", detail)
    assert_matches(schema, "/api/v1/battles/", listing)


def test_reported_battle_matches_the_schema(schema, league):
    battle = first_battle(league)
    reports.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
    )

    detail = client_for(league.user(1)).get(f"/api/v1/battles/{battle.pk}/")

    assert detail.json()["reported_by"] == league.user(0).username
    assert detail.json()["confirmed_by"] is None
    assert_matches(schema, "/api/v1/battles/{id}/", detail)


def test_fighter_type_without_equipment_list_matches_the_schema(schema, league):
    fighter_type = FighterType.objects.order_by("pk").first()
    FighterType.objects.filter(pk=fighter_type.pk).update(equipment_list=None)

    detail = client_for(league.organiser).get(
        f"/api/v1/catalogue/fighter-types/{fighter_type.slug}/"
    )

    assert detail.status_code == 200
    assert detail.json()["equipment_list"] is None
    assert_matches(schema, "/api/v1/catalogue/fighter-types/{slug}/", detail)


def test_standings_are_declared_as_they_are_answered(schema, league):
    """Standings answer a page as every list (count, next, previous, results) with the round
    and the scoring; ``?page=`` and ``?page_size=`` are declared, the CSV is a string."""
    path = "/api/v1/campaigns/{slug}/standings/"
    standings = client_for(league.organiser).get(
        f"/api/v1/campaigns/{league.campaign.slug}/standings/"
    )

    assert set(standings.json()) == {"count", "next", "previous", "results", "round", "scoring"}
    assert standings.json()["count"] == len(standings.json()["results"]) == 2
    assert_matches(schema, path, standings)
    declared = schema["paths"][path]["get"]["responses"]["200"]["content"]
    parameters = {p["name"] for p in schema["paths"][path]["get"].get("parameters", [])}
    assert {"page", "page_size"} <= parameters
    assert declared["text/csv"]["schema"]["type"] == "string"


def test_battle_outside_a_round_matches_the_schema(schema, league):
    battle = services.pairing_create(
        campaign=league.campaign,
        by=league.organiser,
        round=None,
        warband_ids=[league.warband(0).pk, league.warband(1).pk],
    )

    detail = client_for(league.organiser).get(f"/api/v1/battles/{battle.pk}/")

    assert detail.json()["round"] is None
    assert_matches(schema, "/api/v1/battles/{id}/", detail)


def test_members_without_a_warband_match_the_schema(schema, league):
    """The organiser who does not play has no warband: its name, type and rating are null."""
    members = client_for(league.organiser).get(f"/api/v1/campaigns/{league.campaign.slug}/members/")

    organiser = next(m for m in members.json()["results"] if m["role"] == "organiser")
    assert organiser["warband_name"] is None
    assert_matches(schema, "/api/v1/campaigns/{slug}/members/", members)


def test_house_rule_tables_are_declared_an_object_not_null(schema, league):
    """``tables: null`` was valid by the schema and refused by the server."""
    for name in ("CampaignWriteRequest", "PatchedCampaignWriteRequest"):
        tables = schema["components"]["schemas"][name]["properties"]["tables"]
        assert tables["type"] == "object"
        assert not tables.get("nullable")
    refused = client_for(league.organiser).patch(
        f"/api/v1/campaigns/{league.campaign.slug}/", {"tables": None}, format="json"
    )
    assert refused.status_code == 400


def test_every_operation_documents_the_error_shape(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            declared = set(operation["responses"])
            assert {"400", "401", "403", "404", "429"} <= declared, (method, path)
            if method in ("post", "put", "patch", "delete"):
                assert "409" in declared, (method, path)
            for code, response in operation["responses"].items():
                if int(code) >= 400:  # even one a view declared with a description only
                    content = response.get("content", {}).get("application/json", {})
                    assert content.get("schema") == {"$ref": "#/components/schemas/Error"}, (
                        method,
                        path,
                        code,
                    )


def test_error_answers_match_the_schema(schema, league):
    client = client_for(league.organiser)
    slug = league.campaign.slug

    missing = client.get("/api/v1/battles/999999/")
    invalid = client.post(f"/api/v1/campaigns/{slug}/transition/", {"state": "x"}, format="json")
    # Public campaigns are readable anonymously; writing is not.
    anonymous = APIClient().post(f"/api/v1/campaigns/{slug}/transition/", {"state": "running"})

    assert (missing.status_code, invalid.status_code, anonymous.status_code) == (404, 400, 401)
    assert_matches(schema, "/api/v1/battles/{id}/", missing)
    assert_matches(schema, "/api/v1/campaigns/{slug}/transition/", invalid, method="post")
    assert_matches(schema, "/api/v1/campaigns/{slug}/transition/", anonymous, method="post")


def test_creations_answer_201_as_declared(schema, make_league):
    """Adding an organiser, a round, its pairings, a battle by hand and joining answer 201."""
    league = make_league(state="open", players=1)
    campaign = league.campaign
    client = client_for(league.organiser)
    joiner = league.user(0)
    second = new_warband(league.organiser, "Banda del organizador")
    joined = client_for(league.organiser).post(
        "/api/v1/campaigns/join/",
        {"join_code": campaign.join_code, "warband": second.pk},
        format="json",
    )
    organiser = client.post(
        f"/api/v1/campaigns/{campaign.slug}/organisers/", {"username": joiner.username}
    )
    services.campaign_transition(campaign=campaign, by=league.organiser, state="running")
    round = client.post(f"/api/v1/campaigns/{campaign.slug}/rounds/")
    pairings = client.post(
        f"/api/v1/campaigns/{campaign.slug}/rounds/1/pairings/", {"method": "swiss"}
    )
    by_hand = client.post(
        f"/api/v1/campaigns/{campaign.slug}/battles/",
        {"warbands": [league.warband(0).pk, second.pk]},
        format="json",
    )

    answers = (joined, organiser, round, pairings, by_hand)
    assert [a.status_code for a in answers] == [201] * 5, [a.json() for a in answers]
    assert_matches(schema, "/api/v1/campaigns/join/", joined, method="post")
    assert_matches(schema, "/api/v1/campaigns/{slug}/organisers/", organiser, method="post")
    assert_matches(schema, "/api/v1/campaigns/{slug}/rounds/", round, method="post")
    assert_matches(
        schema, "/api/v1/campaigns/{slug}/rounds/{number}/pairings/", pairings, method="post"
    )
    assert_matches(schema, "/api/v1/campaigns/{slug}/battles/", by_hand, method="post")
