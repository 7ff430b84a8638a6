"""A pack's draft edited entry by entry: one form for every section (derived from the
document's keys), saved through the one check; errors name their entry and field; an entry
others point at is not deleted; and the pages an organiser uses on a phone."""

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied

from annuminas.errors import Conflict
from tests.battles.factories import quick_user
from warbands.packs import selectors
from warbands.packs import services as packs
from warbands.packs.entries import EntryForm, entry_keys

from .test_content_packs import TROLL_HUNTERS


@pytest.fixture
def organiser(league_content):
    return quick_user("organiser-entries")


@pytest.fixture
def pack(organiser):
    pack = packs.pack_create(owner=organiser, name="Liga del Norte", visibility="public")
    report = packs.pack_entries_save(pack=pack, by=organiser, entries=TROLL_HUNTERS)
    assert report.ok, report.refused
    return pack


def draft(pack) -> dict:
    return pack.versions.get(state="draft").document


def save(pack, user, kind, data, *, entry="", parent="", apply=True):
    """What a page does: the entry's form, then the one save."""
    document = draft(pack)
    rows = selectors.entries_of(document, kind, parent)
    form = EntryForm(data, kind=kind, document=document, row=rows.get(entry), new=not entry)
    assert form.is_valid(), form.errors
    slug = form.slug(entry)
    report = packs.pack_entry_save(
        pack=pack,
        by=user,
        kind=kind,
        slug=slug,
        entry=form.entry(),
        parent=parent,
        new=not entry,
        apply=apply,
    )
    return form, slug, report


# One new entry per section, through the one form: (kind, parent, what is typed, what is stored)
NEW = [
    ("races", "", {"slug": "troll", "name": "Troll", "max": "15 3 1 5 4 3 1 3 4"}, {"max"}),
    ("special_rules", "", {"slug": "hatred", "name": "Odio", "en_name": "Hatred"}, {"en"}),
    ("skill_lists", "", {"slug": "caza", "name": "Caza", "credit": "Liga, p. 2"}, {"credit"}),
    ("skills", "caza", {"slug": "rastrear", "name": "Rastrear", "description": "Sigue"}, set()),
    (
        "equipment",
        "",
        {"slug": "lanza-larga", "name": "Lanza larga", "kind": "melee", "cost": "12"},
        {"kind", "cost"},
    ),
    ("equipment_lists", "", {"slug": "lista", "name": "Lista", "items": ["daga"]}, {"items"}),
    (
        "fighter_types",
        "cazadores-de-trolls",
        {
            "slug": "arquero",
            "name": "Arquero",
            "role": "henchman",
            "cost": "30",
            "profile": "10 3 4 3 3 1 3 1 7",
            "rules": ["hatred"],
            "equipment": "equipo-cazadores",
        },
        {"role", "cost", "profile", "rules", "equipment"},
    ),
    (
        "hired_swords",
        "",
        {
            "slug": "mercenario",
            "name": "Mercenario",
            "cost": "40",
            "upkeep": "15",
            "profile": "10 4 4 3 3 1 3 1 7",
            "may_hire": ["cazadores-de-trolls"],
        },
        {"cost", "upkeep", "profile", "may_hire"},
    ),
]


@pytest.mark.parametrize(("kind", "parent", "typed", "keys"), NEW, ids=[n[0] for n in NEW])
def test_every_section_adds_an_entry_through_the_one_form(
    pack, organiser, kind, parent, typed, keys
):
    if kind == "skills":
        save(pack, organiser, "skill_lists", {"slug": "caza", "name": "Caza"})
    form, slug, report = save(pack, organiser, kind, typed, parent=parent)
    assert report.ok, report.refused
    stored = selectors.entries_of(draft(pack), kind, parent)[slug]
    assert stored["name"] == typed["name"]
    assert keys <= set(stored)
    if "cost" in typed:
        assert stored["cost"] == int(typed["cost"])  # a number, not the text typed


def test_the_form_is_the_sections_declared_keys(pack):
    """No form per section: each field is a declared key, nested entries have their pages."""
    document = draft(pack)
    for kind in ("equipment", "fighter_types", "warband_types", "skill_lists", "hired_swords"):
        form = EntryForm(kind=kind, document=document, new=False)
        shown = set(form.fields) - {"en_name", "en_description"}
        assert shown == set(entry_keys(kind))
    assert "fighter_types" not in entry_keys("warband_types")
    assert "skills" not in entry_keys("skill_lists")
    equipment = EntryForm(kind="equipment", document=document, new=False)
    assert "hatred" in dict(
        EntryForm(kind="fighter_types", document=document, new=False).fields["rules"].choices
    )
    assert [c for c, _name in equipment.fields["kind"].choices[1:]] == [
        "melee",
        "missile",
        "armour",
        "shield",
        "helmet",
        "misc",
    ]


def test_a_lists_own_prices_are_shown_and_edited(pack, organiser):
    """The list's prices are a field of its form, prefilled with the ones it has: an edit that
    leaves it as shown keeps them, one that changes it changes them."""
    rows = selectors.entries_of(draft(pack), "equipment_lists", "")
    shown = EntryForm(
        kind="equipment_lists", document=draft(pack), row=rows["equipo-cazadores"], new=False
    )
    assert shown.initial["item_prices"] == "arco: 8"
    assert shown.initial["items"] == ["daga", "espada", "arco"]
    typed = {"name": "Equipo nuevo", "items": ["daga", "arco"], "credit": "p. 4"}
    _form, _slug, report = save(
        pack, organiser, "equipment_lists", {**typed, "item_prices": "arco: 8"},
        entry="equipo-cazadores",
    )  # fmt: skip
    assert report.ok, report.refused
    row = draft(pack)["equipment_lists"]["equipo-cazadores"]
    assert row["items"] == ["daga", {"arco": {"cost": 8}}]
    assert row["name"] == "Equipo nuevo" and row["credit"] == "p. 4"
    prices = "daga: 1\narco: {cost: 12, common: true}"
    _form, _slug, report = save(
        pack, organiser, "equipment_lists", {**typed, "item_prices": prices},
        entry="equipo-cazadores",
    )  # fmt: skip
    assert report.ok, report.refused
    row = draft(pack)["equipment_lists"]["equipo-cazadores"]
    assert row["items"] == [{"daga": {"cost": 1}}, {"arco": {"cost": 12, "common": True}}]
    _form, _slug, report = save(
        pack, organiser, "equipment_lists", {**typed, "item_prices": ""},
        entry="equipo-cazadores",
    )  # fmt: skip
    assert draft(pack)["equipment_lists"]["equipo-cazadores"]["items"] == ["daga", "arco"]


@pytest.mark.parametrize(
    ("prices", "error"),
    [
        ("espada: 10", "Priced but not ticked in the list: espada."),
        ("- daga", 'One item a line, its slug then its price: "espada: 10".'),
    ],
)
def test_a_price_for_an_item_not_in_the_list_is_refused_by_the_form(pack, prices, error):
    rows = selectors.entries_of(draft(pack), "equipment_lists", "")
    data = {"name": "Equipo", "items": ["daga"], "item_prices": prices}
    form = EntryForm(
        data,
        kind="equipment_lists",
        document=draft(pack),
        row=rows["equipo-cazadores"],
        new=False,
    )
    assert not form.is_valid()
    assert form.errors["item_prices"] == [error]


def test_a_price_that_is_no_number_is_the_checks_to_refuse(pack, organiser):
    _form, _slug, report = save(
        pack, organiser, "equipment_lists",
        {"name": "Equipo", "items": ["daga"], "item_prices": "daga: mucho"},
        entry="equipo-cazadores", apply=False,
    )  # fmt: skip
    assert not report.ok
    assert any("equipo-cazadores" in line and "items" in line for line in report.refused)
    unchanged = draft(pack)["equipment_lists"]["equipo-cazadores"]["items"]
    assert unchanged == ["daga", "espada", {"arco": {"cost": 8}}]


def test_editing_keeps_what_the_form_does_not_show(pack, organiser):
    """The nested fighter types survive an edit of their warband type."""
    _form, _slug, report = save(
        pack,
        organiser,
        "warband_types",
        {"name": "Cazadores", "race": "human", "max_size": "10", "playable": "on"},
        entry="cazadores-de-trolls",
    )
    assert report.ok, report.refused
    row = draft(pack)["warband_types"]["cazadores-de-trolls"]
    assert row["max_size"] == 10 and set(row["fighter_types"]) == {
        "cazador-jefe",
        "rastreador",
        "batidor",
    }
    assert "en" not in row  # the English name left empty is taken out


def test_an_edit_keeps_a_value_the_lists_do_not_offer(pack, organiser):
    """A targeted rule ("hatred:elfos") is no vocabulary key of its own: still shown, kept."""
    types = draft(pack)["warband_types"]
    types["cazadores-de-trolls"]["fighter_types"]["batidor"]["rules"] = ["hatred:elfos"]
    assert packs.pack_entries_save(pack=pack, by=organiser, entries={"warband_types": types}).ok
    row = draft(pack)["warband_types"]["cazadores-de-trolls"]["fighter_types"]["batidor"]
    form = EntryForm(kind="fighter_types", document=draft(pack), row=row, new=False)
    assert ("hatred:elfos", "hatred:elfos") in form.fields["rules"].choices
    typed = {**row, "cost": "26", "rules": ["hatred:elfos"]}
    _form, _slug, report = save(
        pack, organiser, "fighter_types", typed, entry="batidor", parent="cazadores-de-trolls"
    )
    assert report.ok, report.refused
    row = draft(pack)["warband_types"]["cazadores-de-trolls"]["fighter_types"]["batidor"]
    assert row["rules"] == ["hatred:elfos"] and row["cost"] == 26


def test_errors_name_the_entry_and_the_field_and_nothing_is_written(pack, organiser):
    before = draft(pack)
    form, _slug, report = save(
        pack,
        organiser,
        "fighter_types",
        {"name": "Jefe", "role": "leader", "cost": "mucho", "profile": "10 4 4 9 3 1 4 1 8"},
        entry="cazador-jefe",
        parent="cazadores-de-trolls",
    )
    assert not report.ok
    assert "fighter type cazador-jefe: cost: a whole number from 0 to 5000" in report.refused
    form.show(report.problems, "cazador-jefe")
    assert form.errors["cost"] == ["fighter type cazador-jefe: cost: a whole number from 0 to 5000"]
    assert draft(pack) == before
    form, _slug, report = save(pack, organiser, "equipment", {"slug": "x"})
    assert {
        "equipment x: name: the Spanish name is required",
        "equipment x: kind: one of melee, missile, armour, shield, helmet, misc",
        "equipment x: cost: required",
    } <= set(report.refused)
    assert draft(pack) == before


def test_a_new_entry_may_not_take_a_slug_in_use(pack, organiser):
    _form, _slug, report = save(
        pack, organiser, "equipment_lists", {"slug": "equipo-cazadores", "name": "Otra"}
    )
    assert report.refused == ["equipment list equipo-cazadores: slug: already in the draft"]


def test_deleting_an_entry_others_point_at_is_refused_naming_them(pack, organiser):
    with pytest.raises(Conflict) as refused:
        packs.pack_entry_delete(
            pack=pack, by=organiser, kind="equipment_lists", slug="equipo-cazadores"
        )
    assert refused.value.code == "entry_in_use"
    assert str(refused.value.detail) == (
        "equipment list equipo-cazadores is used by fighter type batidor, fighter type "
        "cazador-jefe, fighter type rastreador."
    )
    assert "equipo-cazadores" in draft(pack)["equipment_lists"]
    # A fighter type goes (under its warband type); the last leader does not.
    report = packs.pack_entry_delete(
        pack=pack, by=organiser, kind="fighter_types", slug="batidor", parent="cazadores-de-trolls"
    )
    assert report.ok
    assert "batidor" not in draft(pack)["warband_types"]["cazadores-de-trolls"]["fighter_types"]
    report = packs.pack_entry_delete(
        pack=pack,
        by=organiser,
        kind="fighter_types",
        slug="cazador-jefe",
        parent="cazadores-de-trolls",
    )
    assert report.refused == [
        "warband type cazadores-de-trolls: fighter_types: needs exactly one leader type"
    ]


def test_an_unused_entry_of_each_kind_is_deleted(pack, organiser):
    for kind, parent, typed, _keys in NEW:
        if kind == "skills":
            save(pack, organiser, "skill_lists", {"slug": "caza", "name": "Caza"})
        assert save(pack, organiser, kind, typed, parent=parent)[2].ok
    # The last first: the hired sword points at the warband type, the list at the equipment.
    for kind, parent, typed, _keys in reversed(NEW):
        report = packs.pack_entry_delete(
            pack=pack, by=organiser, kind=kind, slug=typed["slug"], parent=parent
        )
        assert report.ok, (kind, report.refused)
        assert typed["slug"] not in (selectors.entries_of(draft(pack), kind, parent) or {})


def test_only_the_author_edits_entries(pack, organiser):
    other = quick_user("organiser-other")
    with pytest.raises(PermissionDenied):
        packs.pack_entry_save(
            pack=pack, by=other, kind="equipment_lists", slug="x", entry={"name": "X"}
        )
    with pytest.raises(PermissionDenied):
        packs.pack_entry_delete(
            pack=pack, by=other, kind="equipment_lists", slug="equipo-cazadores"
        )


# The pages ----------------------------------------------------------------------------------
def test_the_pack_page_lists_the_drafts_entries_per_section(pack, author):
    page = author.get(f"/packs/{pack.slug}/").content.decode()
    for kind in (
        "races",
        "special_rules",
        "skill_lists",
        "equipment",
        "equipment_lists",
        "warband_types",
        "hired_swords",
    ):
        assert f'data-testid="pack-section-{kind}"' in page
        assert f'href="/packs/{pack.slug}/draft/{kind}/"' in page
    assert f'href="/packs/{pack.slug}/draft/equipment_lists/equipo-cazadores/"' in page
    assert "Liga del Norte, p. 3" in page  # the entry's credit


def test_an_entry_page_saves_and_shows_errors_beside_the_field(pack, author):
    # A fighter type lives under its warband type, nowhere else.
    assert author.get(f"/packs/{pack.slug}/draft/fighter_types/cazador-jefe/").status_code == 404
    assert (
        author.get(f"/packs/{pack.slug}/draft/skill_lists/x/fighter_types/cazador-jefe/")
    ).status_code == 404
    url = f"/packs/{pack.slug}/draft/warband_types/cazadores-de-trolls/fighter_types/cazador-jefe/"
    page = author.get(url)
    assert page.status_code == 200
    assert 'value="10 4 4 3 3 1 4 1 8"' in page.content.decode()
    # Named as the organiser named them (the slug small beside), the warband type's too.
    assert ">Cazadores de trolls</a>" in page.content.decode()
    assert "Fighter type: Jefe cazador <small" in page.content.decode()  # the client reads English
    data = {
        "name": "Jefe",
        "role": "leader",
        "cost": "70",
        "profile": "10 4 4 9 3 1 4 1 8",
        "apply": "1",
    }
    response = author.post(url, data)
    body = response.content.decode()
    assert response.status_code == 200
    assert "fighter type cazador-jefe: profile: above the race&#x27;s maximum in s" in body
    assert (
        draft(pack)["warband_types"]["cazadores-de-trolls"]["fighter_types"]["cazador-jefe"]["cost"]
        == 60
    )
    response = author.post(url, {**data, "profile": "10 4 4 4 3 1 4 1 8", "apply": "0"})
    assert "Changed: warband type cazadores-de-trolls" in response.content.decode()
    assert (
        draft(pack)["warband_types"]["cazadores-de-trolls"]["fighter_types"]["cazador-jefe"]["cost"]
        == 60
    )  # the dry run writes nothing
    response = author.post(url, {**data, "profile": "10 4 4 4 3 1 4 1 8"})
    assert response.status_code == 302
    leader = draft(pack)["warband_types"]["cazadores-de-trolls"]["fighter_types"]["cazador-jefe"]
    assert leader["cost"] == 70 and leader["profile"] == "10 4 4 4 3 1 4 1 8"


def test_the_pack_page_previews_what_publishing_the_draft_changes(pack, organiser, author):
    packs.pack_publish(pack=pack, by=organiser)
    url = f"/packs/{pack.slug}/draft/equipment_lists/equipo-cazadores/"
    response = author.post(url, {"name": "Equipo", "items": ["daga", "arco"], "apply": "1"})
    assert response.status_code == 302
    page = author.get(f"/packs/{pack.slug}/").content.decode()
    preview = page.split('data-testid="pack-publish-preview"')[1].split("</article>")[0]
    assert "What publishing the draft changes from v1" in preview
    assert "Changed: equipment list equipo-cazadores" in preview
    assert "Refused" not in preview  # the default catalogue's human is known


def test_a_new_warband_type_page_takes_its_leader(pack, author):
    url = f"/packs/{pack.slug}/draft/warband_types/"
    response = author.post(
        url,
        {
            "name": "Enanos del norte",
            "race": "human",
            "leader-name": "Señor",
            "leader-role": "leader",
            "leader-cost": "80",
            "leader-profile": "10 4 4 3 3 1 4 1 8",
            "apply": "1",
        },
    )
    assert response.status_code == 302
    row = draft(pack)["warband_types"]["enanos-del-norte"]
    assert row["fighter_types"]["enanos-del-norte-jefe"]["cost"] == 80


def test_the_delete_button_refuses_naming_who_uses_it(pack, author):
    url = f"/packs/{pack.slug}/draft/equipment_lists/equipo-cazadores/delete/"
    asked = author.post(url)  # without JavaScript: a page that asks first
    assert 'data-testid="confirm-page"' in asked.content.decode()
    response = author.post(url, {"confirmed": "1"}, follow=True)
    assert "is used by fighter type batidor, fighter type cazador-jefe" in (
        response.content.decode()
    )
    assert "equipo-cazadores" in draft(pack)["equipment_lists"]
    child = f"/packs/{pack.slug}/draft/warband_types/cazadores-de-trolls/fighter_types/rastreador/"
    response = author.post(child + "delete/", {"confirmed": "1"})
    assert response.status_code == 302
    assert response.url == f"/packs/{pack.slug}/draft/warband_types/cazadores-de-trolls/"
    assert "rastreador" not in draft(pack)["warband_types"]["cazadores-de-trolls"]["fighter_types"]


@pytest.mark.parametrize("who", ["player", "another organiser"])
def test_no_one_else_edits_the_entries(pack, client, who):
    client.force_login(quick_user(who.replace(" ", "-")))
    base = f"/packs/{pack.slug}/draft/equipment_lists/equipo-cazadores/"
    before = draft(pack)
    assert client.get(base).status_code == 403
    assert client.post(base, {"name": "X", "apply": "1"}).status_code == 403
    assert client.post(base + "delete/").status_code == 403
    assert draft(pack) == before


# The credit notes on the sheet --------------------------------------------------------------
def test_the_sheet_shows_the_credit_of_its_types_and_items(pack, organiser, client):
    from warbands import services as warband_services  # noqa: PLC0415
    from warbands.models import WarbandType  # noqa: PLC0415

    assert save(
        pack,
        organiser,
        "equipment",
        {
            "slug": "lanza-larga",
            "name": "Lanza larga",
            "kind": "melee",
            "cost": "12",
            "credit": "Annúminas v3.0, p. 62",
        },
    )[2].ok
    leader = draft(pack)["warband_types"]["cazadores-de-trolls"]["fighter_types"]["cazador-jefe"]
    assert save(
        pack,
        organiser,
        "fighter_types",
        {**leader, "cost": "60", "xp": "20", "credit": "Liga del Norte, p. 7"},
        entry="cazador-jefe",
        parent="cazadores-de-trolls",
    )[2].ok
    assert save(
        pack,
        organiser,
        "equipment_lists",
        {"name": "Equipo", "items": ["daga", "lanza-larga"]},
        entry="equipo-cazadores",
    )[2].ok
    version = packs.pack_publish(pack=pack, by=organiser)
    player = quick_user("player-sources")
    kind = WarbandType.objects.get(pack_version=version)
    warband = warband_services.warband_create(owner=player, warband_type=kind, name="Fornost")
    chief_type = kind.fighter_types.get(role="leader")
    chief = warband_services.fighter_hire(warband=warband, fighter_type=chief_type, name="Hallas")
    spear = chief_type.equipment_list.entries.get(equipment__name="Lanza larga").equipment
    warband_services.equipment_buy(warband=warband, equipment=spear, fighter=chief)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(player)
    page = client.get(f"/warbands/{warband.pk}/").content.decode()
    assert 'data-testid="sheet-sources"' in page and "<small>Sources</small>" in page
    assert "Jefe cazador: Liga del Norte, p. 7" in page
    assert "Lanza larga: Annúminas v3.0, p. 62" in page
    # The paper sheet (print view and PDF) and the API's sheet carry them too.
    printed = client.get(f"/warbands/{warband.pk}/print/").content.decode()
    assert 'data-testid="print-sources"' in printed
    assert "Jefe cazador: Liga del Norte, p. 7 · Lanza larga: Annúminas v3.0, p. 62" in printed
    assert f"{pack.name} v{version.number}" in printed
    sheet = api_for(player).get(f"/api/v1/warbands/{warband.pk}/sheet/").json()
    assert sheet["pack"] == {
        "slug": pack.slug,
        "name": pack.name,
        "version": version.number,
        "credit": pack.credit or "",
    }
    assert sheet["sources"] == [
        {"name": "Jefe cazador", "credit": "Liga del Norte, p. 7"},
        {"name": "Lanza larga", "credit": "Annúminas v3.0, p. 62"},
    ]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert "<small>Fuentes</small>" in client.get(f"/warbands/{warband.pk}/").content.decode()


# The API ------------------------------------------------------------------------------------
def api_for(user):
    from rest_framework.test import APIClient  # noqa: PLC0415

    client = APIClient()
    client.force_authenticate(user)
    client.credentials(HTTP_ACCEPT_LANGUAGE="en")
    return client


def test_the_api_writes_and_deletes_one_entry(pack, organiser):
    api = api_for(organiser)
    url = f"/api/v1/packs/{pack.slug}/draft/equipment/lanza-larga/"
    response = api.put(url, {"name": "Lanza larga", "kind": "melee", "cost": 12}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["created"] == ["equipment lanza-larga"]
    response = api.put(url, {"name": "Lanza larga", "kind": "melee", "cost": -1}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["fields"] == {
        "cost": ["equipment lanza-larga: cost: a whole number from 0 to 5000"]
    }
    assert draft(pack)["equipment"]["lanza-larga"]["cost"] == 12
    child = f"/api/v1/packs/{pack.slug}/draft/warband_types/cazadores-de-trolls/fighter_types/"
    leader = draft(pack)["warband_types"]["cazadores-de-trolls"]["fighter_types"]["cazador-jefe"]
    response = api.put(child + "cazador-jefe/", {**leader, "cost": 65}, format="json")
    assert response.status_code == 200
    assert response.json()["changed"] == ["warband type cazadores-de-trolls"]
    types = f"/api/v1/packs/{pack.slug}/draft/warband_types/cazadores-de-trolls/"
    response = api.put(types, {"name": "Cazadores", "race": "human"}, format="json")
    assert response.status_code == 200  # its fighter types kept
    assert "batidor" in draft(pack)["warband_types"]["cazadores-de-trolls"]["fighter_types"]
    response = api.delete(f"/api/v1/packs/{pack.slug}/draft/equipment_lists/equipo-cazadores/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "entry_in_use"
    assert api.delete(url).status_code == 200
    assert "lanza-larga" not in (draft(pack).get("equipment") or {})
    assert api.delete(url).status_code == 404
    assert api.put(f"/api/v1/packs/{pack.slug}/draft/nope/x/", {}, format="json").status_code == 404


def test_the_api_lets_no_one_else_write_an_entry(pack):
    api = api_for(quick_user("someone-else"))
    url = f"/api/v1/packs/{pack.slug}/draft/equipment_lists/equipo-cazadores/"
    before = draft(pack)
    assert api.put(url, {"name": "X"}, format="json").status_code == 403
    assert api.delete(url).status_code == 403
    assert draft(pack) == before


def test_the_pack_page_lists_entries_leader_first_then_by_name_whatever_the_stored_order():
    """PostgreSQL's jsonb gives a document's keys back in its own order (shortest first): the
    page sorts them — by role, the leader first, then by name."""
    from warbands.packs.selectors import section_rows

    stored = {
        "zz": {"name": "Batidor", "role": "henchman"},
        "a": {"name": "Rastreador", "role": "hero"},
        "jefe-largo": {"name": "Jefe cazador", "role": "leader"},
        "b": {"name": "Arquero", "role": "hero"},
    }
    rows = section_rows("fighter_types", stored)["rows"]
    assert [row["name"] for row in rows] == ["Jefe cazador", "Arquero", "Rastreador", "Batidor"]
    items = section_rows("equipment", {"z": {"name": "espada"}, "a": {"name": "Daga"}})["rows"]
    assert [row["name"] for row in items] == ["Daga", "espada"]
