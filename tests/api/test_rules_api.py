"""The rules engine over HTTP: anonymous, stable shapes, the one error shape for bad input."""

from fractions import Fraction

import pytest

from rules.engine import Dice

pytestmark = pytest.mark.django_db


def error_fields(response, status=400):
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) == {"code", "message", "fields"}
    return error["fields"]


def test_roll_with_a_seed_replays(api_client):
    first = api_client.post("/api/v1/rules/roll/", {"expression": "2D6", "seed": 42}, format="json")
    again = api_client.post("/api/v1/rules/roll/", {"expression": "2D6", "seed": 42}, format="json")
    assert first.status_code == 200
    body = first.json()
    assert body == again.json()
    assert body["seed"] == 42
    assert len(body["faces"]) == 2 and body["total"] == sum(body["faces"])
    assert body["faces"] == list(Dice(seed=42).roll("2D6").faces)


def test_roll_without_seed_chooses_and_returns_one(api_client):
    body = api_client.post("/api/v1/rules/roll/", {"expression": "D66"}, format="json").json()
    assert isinstance(body["seed"], int)
    replay = api_client.post(
        "/api/v1/rules/roll/", {"expression": "D66", "seed": body["seed"]}, format="json"
    ).json()
    assert replay["faces"] == body["faces"]
    tens, units = body["faces"]
    assert body["total"] == tens * 10 + units


def test_roll_with_faces_from_the_table(api_client):
    body = api_client.post(
        "/api/v1/rules/roll/", {"expression": "2D6", "faces": [3, 5]}, format="json"
    ).json()
    assert body["faces"] == [3, 5] and body["total"] == 8 and body["seed"] is None


@pytest.mark.parametrize("expression", ["5D", "D0", "0D6", "D7x", ""])
def test_bad_expressions_name_the_field(api_client, expression):
    response = api_client.post("/api/v1/rules/roll/", {"expression": expression}, format="json")
    assert "expression" in error_fields(response)


def test_seed_and_faces_together_are_refused(api_client):
    response = api_client.post(
        "/api/v1/rules/roll/", {"expression": "D6", "seed": 1, "faces": [1]}, format="json"
    )
    assert "faces" in error_fields(response)


def test_mablung_initiative_check_with_given_faces(api_client):
    passed = api_client.post(
        "/api/v1/rules/checks/attribute/", {"value": 3, "faces": [3]}, format="json"
    ).json()
    failed = api_client.post(
        "/api/v1/rules/checks/attribute/", {"value": 3, "faces": [4]}, format="json"
    ).json()
    assert passed["passed"] is True and failed["passed"] is False
    assert passed["rolls"][0]["faces"] == [3]
    assert passed["steps"] and all(step["message"] for step in passed["steps"])


def test_leadership_test_explains_itself_in_the_callers_language(api_client):
    english = api_client.post(
        "/api/v1/rules/checks/leadership/",
        {"leadership": 7, "faces": [3, 4]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    ).json()
    spanish = api_client.post(
        "/api/v1/rules/checks/leadership/", {"leadership": 7, "faces": [3, 4]}, format="json"
    ).json()
    assert english["passed"] is True and spanish["passed"] is True
    assert english["steps"][0]["code"] == spanish["steps"][0]["code"]
    assert english["steps"][-1]["message"] != spanish["steps"][-1]["message"]


def test_rout_test_of_a_twelve_strong_warband(api_client):
    warriors = [{"leadership": 7, "status": "standing", "leader": i == 0} for i in range(9)]
    warriors += [{"leadership": 7, "status": "out_of_action", "leader": False}] * 3
    body = api_client.post(
        "/api/v1/rules/checks/rout/", {"warriors": warriors, "faces": [6, 2]}, format="json"
    ).json()
    assert body["passed"] is False  # 8 > 7: the warband routs


def test_falling_ten_cm(api_client):
    body = api_client.post(
        "/api/v1/rules/checks/falling/",
        {"height_cm": 10, "toughness": 3, "seed": 5},
        format="json",
    ).json()
    assert body["details"]["strength"] == 4
    assert 1 <= body["details"]["hits"] <= 3


def test_unknown_check_is_404(api_client):
    response = api_client.post("/api/v1/rules/checks/juggling/", {}, format="json")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_check_with_an_unknown_parameter_names_it(api_client):
    response = api_client.post("/api/v1/rules/checks/attribute/", {"valu": 3}, format="json")
    assert "valu" in error_fields(response)


def test_check_list_documents_parameters(api_client):
    body = api_client.get("/api/v1/rules/checks/").json()
    assert {"attribute", "leadership", "rout", "all-alone", "fear", "stupidity", "falling"} <= set(
        body
    )
    assert body["attribute"]["parameters"]["value"]["required"] is True


ODDS_MELEE = {
    "kind": "melee",
    "attacker": {"ws": 3, "s": 3, "a": 1},
    "defender": {"ws": 3, "t": 3, "w": 1},
}


def test_odds_of_one_plain_attack_are_exact(api_client):
    body = api_client.post("/api/v1/rules/odds/", ODDS_MELEE, format="json").json()
    outcome = {name: Fraction(p["exact"]) for name, p in body["outcome"].items()}
    assert set(outcome) == {"unharmed", "wounded", "knocked_down", "stunned", "out_of_action"}
    assert sum(outcome.values()) == 1
    # 4+ to hit, 4+ to wound, no save: 1/4 wounds; a W1 defender then rolls on the injury table
    assert Fraction(body["per_attack"]["hit"]["exact"]) == Fraction(1, 2)
    assert Fraction(body["per_attack"]["wound"]["exact"]) == Fraction(1, 4)
    assert outcome["unharmed"] == Fraction(3, 4)
    assert body["outcome"]["unharmed"]["value"] == pytest.approx(0.75)


def test_odds_heavy_armour_and_shield_against_a_long_bow(api_client):
    body = api_client.post(
        "/api/v1/rules/odds/",
        {
            "kind": "shooting",
            "attacker": {"bs": 3, "weapon": "arco-largo"},
            "defender": {"ws": 3, "t": 3, "armour_save": 4},
        },
        format="json",
    ).json()
    # hit 1/2 · wound 1/2 (crits on a 6 ignore armour or still roll) · save 4+ unmodified by F3
    assert Fraction(body["per_attack"]["hit"]["exact"]) == Fraction(1, 2)
    assert Fraction(body["per_attack"]["wound"]["exact"]) == Fraction(1, 4)
    assert sum(Fraction(p["exact"]) for p in body["outcome"].values()) == 1


def test_odds_modifiers_lower_the_chance_to_hit(api_client):
    base = {
        "kind": "shooting",
        "attacker": {"bs": 4, "weapon": "arco"},
        "defender": {"ws": 3, "t": 3},
    }
    plain = api_client.post("/api/v1/rules/odds/", base, format="json").json()
    covered = api_client.post(
        "/api/v1/rules/odds/",
        {**base, "modifiers": {"cover": True, "long_range": True}},
        format="json",
    ).json()
    assert Fraction(plain["per_attack"]["hit"]["exact"]) == Fraction(2, 3)
    assert Fraction(covered["per_attack"]["hit"]["exact"]) == Fraction(1, 3)


def test_knocked_down_defender_is_hit_automatically(api_client):
    body = api_client.post(
        "/api/v1/rules/odds/",
        {**ODDS_MELEE, "defender": {"ws": 3, "t": 3, "knocked_down": True}},
        format="json",
    ).json()
    assert Fraction(body["per_attack"]["hit"]["exact"]) == 1
    assert Fraction(body["outcome"]["out_of_action"]["exact"]) == Fraction(1, 2)


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({**ODDS_MELEE, "attacker": {"ws": 11, "s": 3}}, "attacker.ws"),
        ({**ODDS_MELEE, "attacker": {"ws": 3, "s": 3, "weapon": "banana"}}, "attacker.weapon"),
        ({**ODDS_MELEE, "defender": {"ws": 3}}, "defender.t"),
        ({**ODDS_MELEE, "kind": "magic"}, "kind"),
        ({**ODDS_MELEE, "defender": {"ws": 3, "t": 3, "parry": "always"}}, "defender.parry"),
        (
            {
                **ODDS_MELEE,
                "attacker": {"ws": 3, "s": 3, "weapon": "arma-a-dos-manos", "offhand": "daga"},
            },
            "attacker.offhand",
        ),
        (
            {
                "kind": "shooting",
                "attacker": {"bs": 3, "weapon": "espada"},
                "defender": {"ws": 3, "t": 3},
            },
            "attacker.weapon",
        ),
    ],
)
def test_bad_odds_input_names_the_field(api_client, payload, field):
    assert field in error_fields(api_client.post("/api/v1/rules/odds/", payload, format="json"))


def test_attack_is_resolved_step_by_step_and_replays(api_client):
    payload = {
        "kind": "melee",
        "attacker": {"ws": 4, "s": 4, "a": 2, "weapon": "hacha"},
        "defender": {"ws": 3, "t": 3, "armour_save": 5},
        "seed": 99,
    }
    first = api_client.post("/api/v1/rules/attack/", payload, format="json").json()
    again = api_client.post("/api/v1/rules/attack/", payload, format="json").json()
    assert first == again
    assert first["seed"] == 99
    assert first["outcome"] in {"unharmed", "wounded", "knocked_down", "stunned", "out_of_action"}
    assert first["rolls"] and first["steps"]


def test_attack_with_faces_typed_at_the_table(api_client):
    # to hit 6 (HA3 v HA3 needs 4+), to wound 5 (F3 v R3 needs 4+), injury 6 → out of action
    body = api_client.post(
        "/api/v1/rules/attack/",
        {
            "kind": "melee",
            "attacker": {"ws": 3, "s": 3},
            "defender": {"ws": 3, "t": 3},
            "faces": [6, 5, 6],
        },
        format="json",
    ).json()
    assert body["outcome"] == "out_of_action"
    assert [roll["faces"][0] for roll in body["rolls"]] == [6, 5, 6]


def test_tables_in_force(api_client):
    body = api_client.get("/api/v1/rules/tables/").json()
    for name in ("melee_to_hit", "to_wound", "save_modifier_by_strength", "injury", "critical"):
        assert name in body
    assert body["serious_injury"]


def test_rules_endpoints_are_throttled_for_anonymous_writes(api_client):
    from django.core.cache import cache

    from annuminas.api.throttling import WriteRateThrottle

    cache.clear()
    original = WriteRateThrottle.THROTTLE_RATES
    WriteRateThrottle.THROTTLE_RATES = {**original, "writes": "2/minute"}
    try:
        codes = [
            api_client.post("/api/v1/rules/roll/", {"expression": "D6"}, format="json").status_code
            for _ in range(3)
        ]
    finally:
        WriteRateThrottle.THROTTLE_RATES = original
        cache.clear()
    assert codes == [200, 200, 429]
