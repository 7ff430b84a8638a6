"""The post-battle page and API say names and words, in the reader's language: never a skill's
slug, a fighter's database id or a raw Python dict."""

import re

import pytest
from django.conf import settings
from django.utils import translation

from battles.models import PendingDecision
from battles.postbattle.presenters import step_message
from tests.battles.test_postbattle import fight, leader, out_of_action, resolve  # noqa: F401
from warbands.models import Equipment, Fighter, Skill, SkillList

pytestmark = pytest.mark.django_db


@pytest.fixture
def decided(make_league, resolve):  # noqa: F811 - the fixture imported above
    """A resolved battle whose winner has an open and an answered decision of every kind."""
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    run = resolve(battle, faces={str(a.pk): [1] * 30, str(b.pk): [4, 5] + [4] * 30})
    assert run.status == "applied", run.error
    captain, enemy = leader(a), leader(b)
    lads = list(Fighter.objects.filter(warband=a, group__isnull=False).order_by("pk"))
    skills = list(Skill.objects.order_by("slug")[:3])
    lists = list(SkillList.objects.order_by("slug")[:3])
    items = list(Equipment.objects.filter(slug__contains="-").order_by("slug")[:2])
    common = {"result": run.results.get(warband=a), "warband": a}
    talent = {
        "fighter": lads[0],
        "group": lads[0].group,
        "options": [lad.pk for lad in lads],
        "payload": {"roll": 10, "skill_lists": [item.slug for item in lists]},
    }
    prices = {"prices": {items[0].slug: 40, items[1].slug: 55}}
    PendingDecision.objects.bulk_create(
        [
            PendingDecision(**common, fighter=captain, kind="characteristic", options=["ws", "bs"]),
            PendingDecision(
                **common, fighter=captain, kind="skill", options=[s.slug for s in skills]
            ),
            PendingDecision(**common, kind="lads_got_talent", **talent),
            PendingDecision(
                **common,
                fighter=enemy,
                kind="captive",
                options=["ransom", "sell", "exchange"],
                payload={"sale_value": 20},
            ),
            PendingDecision(
                **common,
                fighter=captain,
                kind="rare_item",
                options=[item.slug for item in items],
                payload=prices,
            ),
            PendingDecision(
                **common,
                fighter=captain,
                kind="upkeep",
                options=["pay", "leave"],
                payload={"upkeep": 20},
            ),
        ]
    )
    PendingDecision.objects.bulk_create(
        [
            PendingDecision(
                **common,
                fighter=captain,
                kind="skill",
                options=[s.slug for s in skills],
                choice=skills[1].slug,
                status="answered",
            ),
            PendingDecision(
                **common,
                fighter=captain,
                kind="characteristic",
                options=["ws", "bs"],
                choice="bs",
                status="answered",
            ),
            PendingDecision(
                **common,
                kind="lads_got_talent",
                **talent,
                choice={"fighter": lads[1].pk, "skill_lists": [lists[0].slug, lists[1].slug]},
                status="answered",
            ),
            PendingDecision(
                **common,
                fighter=enemy,
                kind="captive",
                options=["sell", "exchange"],
                payload={"sale_value": 20},
                choice="sell",
                status="answered",
            ),
            PendingDecision(
                **common,
                fighter=captain,
                kind="rare_item",
                options=[items[0].slug],
                payload=prices,
                choice=items[0].slug,
                status="answered",
            ),
            PendingDecision(
                **common,
                fighter=captain,
                kind="upkeep",
                options=["pay", "leave"],
                payload={"upkeep": 20},
                choice="pay",
                status="answered",
            ),
            PendingDecision(
                **common,
                fighter=captain,
                kind="upkeep",
                options=["pay", "leave"],
                payload={"upkeep": 15},
                choice="leave",
                status="declined",
            ),
        ]
    )
    return {
        "league": league,
        "battle": battle,
        "captain": captain,
        "lads": lads,
        "skills": skills,
        "lists": lists,
        "items": items,
    }


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style|head)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<option\b[^>]*>", "\n", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def decisions_heading(language: str) -> str:
    with translation.override(language):
        return translation.gettext("Your decisions")


def page_text(client, decided, language: str) -> str:
    client.force_login(decided["league"].user(0))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(f"/battles/{decided['battle'].pk}/postbattle/")
    assert response.status_code == 200
    return visible_text(response.content.decode())


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_page_shows_names_not_slugs_ids_or_dicts(client, decided, language):
    text = page_text(client, decided, language)
    catalogue = decided["skills"] + decided["lists"] + decided["items"]
    with translation.override(language):  # the catalogue's names in the page's language
        names = {row.slug: row.display_name for row in catalogue}
        lads = [f"{lad.name} ({lad.fighter_type.display_name})" for lad in decided["lads"]]

    for row in catalogue:
        assert names[row.slug] in text
        if language == "en" and row.name != names[row.slug]:
            assert row.name not in text  # the pack's Spanish name is not on an English page
    for lad in lads:
        assert lad in text
    assert f"{decided['captain'].name}" in text
    # A slug that is its own name as a word ("combate") can stand in Spanish text as that word.
    slugs = [s.slug for s in catalogue if s.slug != s.name.casefold()]
    for slug in slugs:
        assert not re.search(rf"(?<![\w-]){re.escape(slug)}(?![\w-])", text), slug
    decisions = text[text.index(decisions_heading(language)) :]
    assert not re.search(r"#\d", decisions), "a database id is shown"
    assert "{" not in text and "'fighter'" not in text and "skill_lists" not in text


def test_answers_read_in_words_in_english(client, decided):
    text = page_text(client, decided, "en")
    skills, lads, lists = decided["skills"], decided["lads"], decided["lists"]
    with translation.override("en"):
        assert f"Chosen: {skills[1].display_name}" in text
        assert f"Promoted: {lads[1].name} ({lads[1].fighter_type.display_name})" in text
        assert f"{lists[0].display_name}, {lists[1].display_name}" in text
        assert f"Bought: {decided['items'][0].display_name}" in text
    assert "Chosen: Ballistic Skill (BS)" in text
    assert "Sold for 20 co" in text
    assert "Paid: 20 co" in text and "He leaves" in text
    assert f"{decided['captain'].name} asks for his upkeep: 20 co." in text
    assert "Pay the upkeep" in text and "Let him go" in text


def test_spanish_page_translates_the_stored_codes(client, decided):
    text = page_text(client, decided, "es")
    # Serious injury 45 of the loser's leader, stored with its English label.
    assert "Recuperación completa" in text
    assert "Full recovery" not in text
    assert "Elegir una nueva habilidad" in text  # the kind, in Spanish
    assert "¿Quién se convierte en héroe?" in text


def test_step_codes_are_translated_when_shown():
    with translation.override("en"):
        assert step_message("+%(amount)d XP: %(reason)s.", {"amount": 1, "reason": "survived"}) == (
            "+1 XP: survived the battle."
        )
        assert step_message(
            "+%(amount)d XP: %(reason)s.", {"amount": 1, "reason": "winning_leader"}
        ) == ("+1 XP: leader of the winning warband.")
        assert step_message(
            "%(kind)s of %(face)d: a special location.", {"kind": "doubles", "face": 3}
        ) == ("Doubles of 3: a special location.")
        assert step_message(
            "Henchman injury: %(face)d, %(result)s.", {"face": 4, "result": "fine"}
        ) == ("Henchman injury: 4, fine.")
    with translation.override("es"):
        assert "Herida en el pecho" in step_message(
            "Serious injury D66 %(value)d: %(label)s.",
            {"value": 26, "label": "Chest wound", "result": "chest_wound"},
        )


def test_the_api_gives_each_option_a_label(client, decided):
    client.force_login(decided["league"].user(0))
    body = client.get("/api/v1/decisions/?status=all", HTTP_ACCEPT_LANGUAGE="en").json()
    by_kind = {}
    for decision in body["results"]:
        by_kind.setdefault(decision["kind"], []).append(decision)
    skill = by_kind["skill"][0]
    talent = by_kind["lads_got_talent"][0]
    rare = by_kind["rare_item"][0]
    with translation.override("en"):  # asked for in English: the catalogue's English names
        assert skill["option_labels"] == {s.slug: s.display_name for s in decided["skills"]}
        assert talent["option_labels"] == {
            str(lad.pk): f"{lad.name} ({lad.fighter_type.display_name})" for lad in decided["lads"]
        }
        item = decided["items"][0]
        assert rare["option_labels"][item.slug].startswith(item.display_name)
    assert skill["option_labels"] != {s.slug: s.name for s in decided["skills"]}
    upkeep = by_kind["upkeep"]
    assert upkeep[0]["option_labels"] == {"pay": "Pay the upkeep", "leave": "Let him go"}
    assert {d["answer_text"] for d in upkeep} >= {"Paid: 20 co", "He leaves"}
    assert by_kind["characteristic"][0]["option_labels"]["ws"] == "Weapon Skill (WS)"
    assert all("option_labels" in d and "answer_text" in d for d in body["results"])

    results = client.get(f"/api/v1/battles/{decided['battle'].pk}/postbattle/").json()
    decisions = [d for r in results["runs"][0]["results"] for d in r["decisions"]]
    assert decisions and all(d["option_labels"] for d in decisions)


def test_the_schema_declares_option_labels(client, decided):
    client.force_login(decided["league"].user(0))
    schema = client.get("/api/v1/schema/?format=json").json()
    properties = schema["components"]["schemas"]["Decision"]["properties"]
    assert properties["option_labels"]["type"] == "object"
    assert properties["option_labels"]["additionalProperties"]["type"] == "string"
    assert "answer_text" in properties


def test_a_bought_rare_item_says_what_it_cost(client, decided):
    """Found on a phone: "Bought: War horn" said nothing of the price paid."""
    text = page_text(client, decided, "en")
    with translation.override("en"):
        assert f"Bought: {decided['items'][0].display_name} for 40 co" in text
