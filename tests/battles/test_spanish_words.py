"""Spanish pages say everything in Spanish: the post-battle results, the checks a battle waits
for, a JSON mistake in the campaign form (not the parser's English)."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from battles.postbattle.presenters import step_message
from rules.presenters import translate_message
from tests.battles.factories import quick_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("result", "spanish"), [("fine", "sin secuelas"), ("dead", "muerto")])
def test_injury_results_are_spanish(result, spanish):
    template = "%(roll)s, %(result)s."
    with translation.override("es"):
        assert step_message(template, {"roll": 4, "result": result}) == f"4, {spanish}."
        assert spanish in step_message(template, {"roll": 1, "result": result})


def test_the_checks_due_are_named_in_the_readers_language():
    template = "Take the checks due before the next turn: %(checks)s."
    with translation.override("es"):
        text = translate_message(template, {"checks": "stupidity, rally"})
    assert "stupidity" not in text and "Estupidez" in text
    with translation.override("en"):
        assert "Stupidity" in translate_message(template, {"checks": "stupidity"})


def test_a_json_mistake_in_the_campaign_form_is_explained_in_spanish(league_content):
    client = Client()
    client.force_login(quick_user("cirdan"))
    response = client.post(
        reverse("campaign-create"),
        {"name": "Liga de Mithlond", "preset": "raid", "tables": '{"exploration": [1, }'},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Expecting" not in html and "line 1" not in html
    assert "no es JSON válido (línea 1, columna" in html


def test_characteristics_are_abbreviated_in_the_readers_language():
    from rules.presenters import code_label

    with translation.override("en"):
        assert [code_label("c", c) for c in ("ws", "s", "ld")] == ["WS", "S", "Ld"]
    with translation.override("es"):
        assert [code_label("c", c) for c in ("ws", "s", "ld")] == ["HA", "F", "L"]


def test_a_purpose_is_not_preceded_by_a_second_para():
    template = (
        "The given dice ran out: %(expression)s for %(purpose)s needs another face, "
        "but all %(count)d faces were used."
    )
    with translation.override("es"):
        text = translate_message(template, {"expression": "D6", "purpose": "to wound", "count": 2})
    assert "para para" not in text and "D6 (para herir)" in text


def test_a_refusal_is_a_spanish_page_in_the_sites_layout(league):
    from tests.battles.factories import first_battle

    battle = first_battle(league)
    client = Client()
    client.force_login(league.user(0))
    response = client.post(reverse("battle-postbattle-revert", args=[battle.pk]))
    html = response.content.decode()
    assert response.status_code == 403
    assert 'data-testid="forbidden"' in html and "No permitido" in html
    assert "Forbidden" not in html and '<html lang="es"' in html


def test_battles_are_tables_not_ids_and_players_get_no_job_link(
    league, django_capture_on_commit_callbacks
):
    from battles.postbattle import battle_resolve_start
    from tests.battles.test_postbattle import fight, leader, out_of_action

    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    with django_capture_on_commit_callbacks(execute=True):
        battle_resolve_start(battle=battle, user=league.organiser)
    player = Client()
    player.force_login(league.user(0))
    campaign = player.get(reverse("campaign-detail", args=[league.campaign.slug])).content.decode()
    assert f">#{battle.pk}<" not in campaign and "Mesa 1" in campaign
    page = player.get(reverse("battle-postbattle", args=[battle.pk])).content.decode()
    assert 'data-testid="job-link"' not in page and "/jobs/" not in page
    organiser = Client()
    organiser.force_login(league.organiser)
    page = organiser.get(reverse("battle-postbattle", args=[battle.pk])).content.decode()
    assert 'data-testid="job-link"' in page


def test_weapons_by_their_names(league_content):
    with translation.override("es"):
        text = translate_message(
            "%(count)d attack with %(weapon)s at F%(strength)d.",
            {"count": 1, "weapon": "hacha", "strength": 3},
        )
    assert "hacha" not in text and "Hacha" in text
    with translation.override("en"):
        text = translate_message("%(weapon)s", {"weapon": "hacha"})
    assert text == "Axe"


def test_the_campaign_form_lists_its_errors_at_the_top(league_content):
    client = Client()
    client.force_login(quick_user("galdor"))
    response = client.post(
        reverse("campaign-create"),
        {"name": "", "preset": "raid", "points_win": "mucho", "tables": "{"},
    )
    html = response.content.decode()
    summary = html.index('data-testid="form-errors"')
    assert summary < html.index('data-testid="preset-table"') < html.index('name="tables"')
    top = html[summary : html.index("</div>", summary)]
    assert 'href="#id_name"' in top and 'href="#id_tables"' in top
    assert "No se ha guardado nada" in top


@pytest.mark.parametrize(
    "path", ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
)
def test_the_account_pages_say_tu_not_usted(client, path):
    html = client.get(path).content.decode()
    for formal in ("¿Ha olvidado", "Su contraseña", "regístrese", "Introduzca", "tiene una cuenta"):
        assert formal not in html, (path, formal)
    assert any(word in html for word in ("tu contraseña", "Tu contraseña", "regístrate", "tienes"))


def test_the_house_rules_summary_has_bonus_points_and_tie_breakers(league):
    client = Client()
    client.force_login(league.user(0))
    html = client.get(reverse("campaign-detail", args=[league.campaign.slug])).content.decode()
    for testid in ("bonus-rule", "tie-breakers-rule", "warbands-in-other-campaigns-rule"):
        assert f'data-testid="{testid}"' in html, testid


def test_the_print_view_has_exactly_one_viewport_tag(league):
    client = Client()
    client.force_login(league.user(0))
    html = client.get(reverse("warband-print", args=[league.warband(0).pk])).content.decode()
    assert html.count('name="viewport"') == 1
