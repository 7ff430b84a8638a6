import pytest

pytestmark = pytest.mark.django_db

FORM = {
    "kind": "melee",
    "a_ws": "3",
    "a_bs": "3",
    "a_s": "3",
    "a_a": "1",
    "a_weapon": "",
    "a_offhand": "",
    "a_missile": "arco",
    "d_ws": "3",
    "d_t": "3",
    "d_w": "1",
    "d_s": "3",
    "d_armour_save": "",
    "d_parry": "none",
}


def test_page_renders_for_anonymous_visitors(client):
    response = client.get("/rules/odds/")
    assert response.status_code == 200
    assert "Calculadora de probabilidades" in response.content.decode()


def test_calculate_shows_exact_fractions(client):
    html = client.post("/rules/odds/", FORM).content.decode()
    assert 'data-testid="fraction-unharmed">3/4<' in html


def test_htmx_request_gets_only_the_result(client):
    response = client.post("/rules/odds/", FORM, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html
    assert 'data-testid="odds-result"' in html


def test_roll_it_shows_the_dice_and_the_seed(client):
    html = client.post("/rules/odds/", {**FORM, "roll": "1", "seed": "12"}).content.decode()
    assert 'data-testid="seed">12<' in html
    assert 'data-code="melee.to_hit"' in html


def test_bad_input_is_shown_and_nothing_computed(client):
    html = client.post("/rules/odds/", {**FORM, "a_ws": "11"}).content.decode()
    assert 'data-testid="odds-errors"' in html
    assert 'data-testid="odds-result"' not in html


def test_impossible_combination_is_explained(client):
    html = client.post(
        "/rules/odds/", {**FORM, "a_weapon": "arma-a-dos-manos", "a_offhand": "daga"}
    ).content.decode()
    assert 'data-testid="odds-errors"' in html


def test_page_uses_a_fixed_number_of_queries(client, user, assert_max_queries):
    client.force_login(user)
    with assert_max_queries(6):
        client.get("/rules/odds/")
