"""The sheet as the paper Hoja de Control de Banda — special rules in words for
heroes and henchman groups, members by name, games played, no slugs — and a PDF of one A4 page
for a typical 10-warrior warband, two at most for 20."""

import re
import zlib
from html.parser import HTMLParser

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.warbands.fixtures import build_roster, equipment, fighter_type
from warbands import pdf, services
from warbands.models import FighterType, SpecialRule

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache(content):
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def browser_client(client, user):
    client.force_login(user)
    return client


class _VisibleText(HTMLParser):
    """The text a reader sees: no tags, attributes, scripts or styles."""

    def __init__(self):
        super().__init__()
        self.parts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def orc_warband(make_warband, *, trolls=True):
    warband = make_warband(type_slug="orcos-de-angmar", name="Garras de Gundabad")
    services.ledger_record(warband=warband, amount=5000, reason="adjustment", description="fondos")
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("cabecilla-orco"), name="Gorbag"
    )
    if trolls:
        services.fighter_hire(
            warband=warband, fighter_type=fighter_type("troll-de-las-cavernas"), name="Bert"
        )
    return warband


def page_count(document: bytes) -> int:
    """Page objects in the PDF, looked for in its compressed object streams too."""
    parts = [document]
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", document, re.S):
        try:
            parts.append(zlib.decompress(stream))
        except zlib.error:
            continue
    return sum(len(re.findall(rb"/Type\s*/Page\b(?!s)", part)) for part in parts)


def test_heroes_and_groups_show_their_special_rules_in_words(browser_client, make_warband):
    warband = orc_warband(make_warband)
    page = browser_client.get(reverse("warband-sheet", args=[warband.pk])).content.decode()
    text = visible_text(page)
    for slug in ("animosity", "fear", "stupidity", "regeneration", "large-target"):
        rule = SpecialRule.objects.get(slug=slug)
        assert rule.display_name in text and rule.display_description in text  # English
        assert rule.description not in text  # never the pack's Spanish on an English page
        assert "-" not in slug or slug not in text  # "fear" is also an English word
    troll_card = page[page.index("Bert") :]
    assert "Fear" in troll_card and "Stupidity" in troll_card  # the troll's own card


def test_members_by_name_and_games_played(browser_client, warband):
    build_roster(warband, henchmen=3)
    page = browser_client.get(reverse("warband-sheet", args=[warband.pk])).content.decode()
    assert 'data-testid="games-played">0<' in page
    for number in (1, 2, 3):
        assert f"Grupo 1 {number}" in visible_text(page)


def test_games_played_counts_confirmed_battles(browser_client, warband, make_warband):
    from battles.models import Battle, BattleParticipant, Campaign

    campaign = Campaign.objects.create(name="Liga", join_code="LIGA1", created_by=warband.owner)
    other = make_warband(name="Otros")
    for status in ("resolved", "confirmed", "scheduled"):
        battle = Battle.objects.create(campaign=campaign, status=status)
        BattleParticipant.objects.create(battle=battle, warband=warband)
        BattleParticipant.objects.create(battle=battle, warband=other)
    page = browser_client.get(reverse("warband-sheet", args=[warband.pk])).content.decode()
    assert 'data-testid="games-played">2<' in page


def test_no_slugs_in_the_visible_text_of_sheet_print_and_share(browser_client, make_warband):
    warband = orc_warband(make_warband)
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("guerrero-orco"), name="Pinchos", count=3
    )
    slugs = set(SpecialRule.objects.values_list("slug", flat=True)) | set(
        FighterType.objects.values_list("slug", flat=True)
    )
    slugs = {slug for slug in slugs if "-" in slug}
    services.warband_update(warband=warband, expected_version=None, shared=True)
    for url in (
        reverse("warband-sheet", args=[warband.pk]),
        reverse("warband-print", args=[warband.pk]),
        reverse("warband-share", args=[warband.share_token]),
    ):
        text = visible_text(browser_client.get(url).content.decode())
        assert not [slug for slug in slugs if slug in text], url
        assert "Animosity" in text and "Animosidad" not in text


def test_print_lists_rules_members_and_games(browser_client, make_warband):
    warband = orc_warband(make_warband)
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("guerrero-orco"), name="Pinchos", count=2
    )
    text = visible_text(
        browser_client.get(reverse("warband-print", args=[warband.pk])).content.decode()
    )
    assert "Pinchos 1" in text and "Pinchos 2" in text
    assert "Games played: 0" in text
    regeneration = SpecialRule.objects.get(slug="regeneration")
    assert regeneration.display_description in text
    assert "Roll a D6 for each wound" in text and regeneration.description not in text


def test_the_sheet_query_count_holds_with_special_rules(
    browser_client, make_warband, assert_max_queries
):
    warband = orc_warband(make_warband)
    for number in range(3):
        services.fighter_hire(
            warband=warband, fighter_type=fighter_type("trasgo"), name=f"T{number}", count=3
        )
    with assert_max_queries(12):
        response = browser_client.get(reverse("warband-sheet", args=[warband.pk]))
    assert response.status_code == 200


def _render(warband) -> bytes:
    warband.refresh_from_db()
    ids = {"warband_id": warband.pk, "version": warband.version, "language": "es"}
    assert pdf.warband_pdf_render(**ids) == pdf.DONE
    return pdf.warband_pdf_stored(**ids)


def test_a_typical_ten_warrior_warband_prints_on_one_page(warband):
    # Leader, two champions, two youngsters, five henchmen in three groups, all equipped.
    services.ledger_record(warband=warband, amount=5000, reason="adjustment", description="x")
    heroes = [
        ("capitan-mercenario", "Capitán Bardo"),
        ("campeon-mercenario", "Brand"),
        ("campeon-mercenario", "Bain"),
        ("joven-mercenario", "Bard el joven"),
        ("joven-mercenario", "Girion"),
    ]
    for slug, name in heroes:
        hero = services.fighter_hire(warband=warband, fighter_type=fighter_type(slug), name=name)
        for item in ("daga", "espada", "escudo"):
            services.equipment_buy(warband=warband, equipment=equipment(item), fighter=hero)
    for name, slug, count in (
        ("Lanzas", "guerrero-mercenario", 2),
        ("Tiradores", "tirador-mercenario", 2),
        ("Espadas", "espadachin", 1),
    ):
        group = services.fighter_hire(
            warband=warband, fighter_type=fighter_type(slug), name=name, count=count
        )
        services.equipment_buy(warband=warband, equipment=equipment("lanza"), group=group)
    assert page_count(_render(warband)) == 1


def test_a_twenty_warrior_warband_prints_on_two_pages_at_most(make_warband):
    warband = orc_warband(make_warband)
    for slug, name in (
        ("chaman-orco", "Zog"),
        ("orco-grande", "Uglúk"),
        ("orco-grande", "Lugdush"),
    ):
        hero = services.fighter_hire(warband=warband, fighter_type=fighter_type(slug), name=name)
        services.equipment_buy(warband=warband, equipment=equipment("daga"), fighter=hero)
        services.equipment_buy(warband=warband, equipment=equipment("espada"), fighter=hero)
    for name, slug, count in (
        ("Guerreros", "guerrero-orco", 5),
        ("Arqueros", "arquero-orco", 5),
        ("Trasgos", "trasgo", 5),
    ):
        group = services.fighter_hire(
            warband=warband, fighter_type=fighter_type(slug), name=name, count=count
        )
        services.equipment_buy(warband=warband, equipment=equipment("daga"), group=group)
    warband.refresh_from_db()
    assert warband.fighters.filter(status="active").count() == 20
    assert page_count(_render(warband)) <= 2
