"""A content pack's campaign tables: checked by the one check a campaign's own overrides pass
(every problem naming its table, row and key), carried through the file, a copy and
publishing; the tables in force are the pack version's, each replaced by the campaign's own;
the post-battle sequence rolls on them; edited on the pack pages and through the API."""

import copy

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from battles.battlelog.scenarios import campaign_scenarios
from battles.campaigns import services
from battles.campaigns.house_rules import house_rules_clean
from battles.campaigns.selectors import campaign_tables
from battles.models import Campaign
from rules.engine.campaign_tables import default_tables, tables_in_force, tables_problems
from tests.battles.factories import League, league_on_pack, quick_user
from tests.battles.test_postbattle import fight, leader, out_of_action
from warbands import services as warband_services
from warbands.models import Fighter, PackVersion, Warband, WarbandType
from warbands.packs import services as packs
from warbands.packs.document import document_check
from warbands.packs.files import yaml_read, yaml_write

from .test_content_packs import TROLL_HUNTERS
from .test_postbattle import resolve  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

# The example of docs/content-packs.md › The campaign tables.
TABLES = yaml_read(
    """\
hero_injuries:
  - {min: 11, max: 14, result: dead}
  - {min: 15, max: 21, result: multiple_injuries}
  - {min: 22, max: 36, result: full_recovery}
  - {min: 41, max: 66, result: hardened}
henchman_injuries:
  - {min: 1, max: 1, result: dead}
  - {min: 2, max: 6, result: fine}
hero_advances:
  - {min: 2, max: 6, result: skill}
  - {min: 7, max: 7, result: choice, options: [ws, bs]}
  - {min: 8, max: 8, result: subroll, options: [["1-3", i], ["4-6", ld]]}
  - {min: 9, max: 12, result: skill}
henchman_advances:
  - {min: 2, max: 9, result: characteristic, options: [i]}
  - {min: 10, max: 12, result: lads_got_talent}
underdog_bonus:
  - {min: 0, max: 50, result: 0}
  - {min: 51, max: null, result: 1}
exploration:
  - {min: 1, max: 12, result: 1}
  - {min: 13, max: null, result: 2}
sell_finds:
  "1": [45, 40, 35, 30, 30, 25]
  "2": [60, 55, 50, 45, 40, 35]
advance_thresholds: {hero: [2, 4, 6, 8, 11], henchman: [2, 5, 9, 14]}
scenarios:
  - {name: Emboscada en el vado, attacker_defender: true}
  - {name: Escaramuza}
"""
)
EVERY_ROLL_HARDENS = [{"min": 11, "max": 66, "result": "hardened"}]


@pytest.fixture
def organiser(league_content):
    return quick_user("organiser-tables")


def published(organiser, tables=TABLES, name="Liga del Norte"):
    pack = packs.pack_create(owner=organiser, name=name, visibility="public")
    document = {**copy.deepcopy(TROLL_HUNTERS), "tables": tables}
    report = packs.pack_import(pack=pack, by=organiser, text=yaml_write(document), apply=True)
    assert report.ok, report.refused
    return pack, packs.pack_publish(pack=pack, by=organiser)


def draft(pack) -> dict:
    return pack.versions.get(state=PackVersion.State.DRAFT).document


# The one check -------------------------------------------------------------------------------
def test_the_default_rows_and_the_documented_example_pass():
    assert tables_problems(default_tables()) == []
    assert document_check({"tables": TABLES}) == []
    assert document_check({"tables": default_tables()}) == []


BAD = [
    (
        {"exploration": [{"min": 1, "max": 10, "result": 1}]},
        "table exploration: no row for 11, 12, 13, 14, 15, 16, 17, 18…",
    ),
    (
        {
            "hero_injuries": [
                {"min": 11, "max": 66, "result": "dead"},
                {"min": 20, "max": 10, "result": "hardened"},
            ]
        },
        "table hero_injuries: row 2: max: less than min",
    ),
    (
        {"hero_injuries": [{"min": 11, "max": 40, "result": "dead"}, {"min": 30, "max": 66}]},
        "table hero_injuries: row 2: result: required",
    ),
    (
        {"henchman_injuries": [{"min": 1, "max": 3, "result": "dead"}, {"min": 3, "max": 6}]},
        "table henchman_injuries: row 2: result: required",
    ),
    (
        {"henchman_injuries": [{"min": 1, "max": 6, "result": "fine", "note": "x"}]},
        "table henchman_injuries: row 1: note: unknown key; a row has min, max, result, options",
    ),
    (
        {"hero_advances": [{"min": 2, "max": 12, "result": "choice", "options": ["luck"]}]},
        "table hero_advances: row 1: options: a list of characteristics among m, ws, bs, s, t, "
        "w, i, a, ld",
    ),
    (
        {"henchman_advances": [{"min": 2, "max": 12, "result": "skill"}]},
        "table henchman_advances: row 1: result: one of characteristic, choice, lads_got_talent",
    ),
    (
        {"underdog_bonus": [{"min": 0, "max": 50, "result": 0}]},
        'table underdog_bonus: row 1: max: the last row needs max: null ("and above")',
    ),
    (
        {"sell_finds": {"1": [45, 40]}},
        "table sell_finds: row 1: 6 whole numbers from 0 to 10000",
    ),
    ({"scenarios": [{"name": " "}]}, "table scenarios: row 1: name: text of 1 to 120 characters"),
    ({"weather": []}, "table weather: not a campaign table; the tables are: hero_injuries"),
]


@pytest.mark.parametrize(("tables", "expected"), BAD)
def test_every_problem_names_its_table_row_and_key(organiser, tables, expected):
    """The pack's check (a file, the draft) and the campaign's settings say the same."""
    pack = packs.pack_create(owner=organiser, name="Liga")
    report = packs.pack_import(
        pack=pack, by=organiser, text=yaml_write({"tables": tables}), apply=True
    )
    assert not report.ok
    assert any(line.startswith(expected) for line in report.refused), report.refused
    assert pack.versions.get().document == {}  # nothing written
    with pytest.raises(ValidationError) as refused:
        house_rules_clean({"tables": tables})
    assert expected.removeprefix("table ") in refused.value.message_dict["tables"][0]


def test_tables_are_a_mapping(organiser):
    assert [str(p) for p in document_check({"tables": [1]})] == [
        "tables: must be a mapping of table name to rows"
    ]


# The tables in force -------------------------------------------------------------------------
def test_the_campaigns_own_table_replaces_the_packs_table_by_table():
    pack = {"exploration": TABLES["exploration"], "hero_injuries": TABLES["hero_injuries"]}
    own = {"hero_injuries": EVERY_ROLL_HARDENS, "scenarios": TABLES["scenarios"]}
    assert tables_in_force(pack, own) == {
        "exploration": TABLES["exploration"],
        "hero_injuries": EVERY_ROLL_HARDENS,
        "scenarios": TABLES["scenarios"],
    }
    assert tables_in_force(None, own) == own
    assert tables_in_force(pack, None) == pack


def test_a_table_stored_before_the_check_was_strict_is_not_played(organiser):
    """A campaign's own table the check now refuses (an underdog table with a gap, stored when
    the check was looser) is left out of the tables in force: the pack's or the default table
    is played, and the battle's setup does not fail on it."""
    campaign = services.campaign_create(organiser=organiser, name="Liga antigua")
    gap = [{"min": 0, "max": 10, "result": 0}, {"min": 50, "max": None, "result": 1}]
    Campaign.objects.filter(pk=campaign.pk).update(
        tables={"underdog_bonus": gap, "hero_injuries": EVERY_ROLL_HARDENS}
    )
    campaign.refresh_from_db()
    assert campaign_tables(campaign) == {"hero_injuries": EVERY_ROLL_HARDENS}


def test_a_campaign_cannot_set_advance_thresholds_and_old_ones_are_not_in_force(organiser):
    campaign = services.campaign_create(organiser=organiser, name="Liga umbrales")
    with pytest.raises(ValidationError, match="advance_thresholds"):
        services.campaign_update(
            campaign=campaign,
            by=organiser,
            changes={"tables": {"advance_thresholds": TABLES["advance_thresholds"]}},
        )
    Campaign.objects.filter(pk=campaign.pk).update(
        tables={"advance_thresholds": TABLES["advance_thresholds"]}
    )
    campaign.refresh_from_db()
    assert campaign_tables(campaign) == {}


def test_the_migration_brings_old_overrides_to_the_checks_shape(organiser):
    import importlib  # noqa: PLC0415

    from django.apps import apps  # noqa: PLC0415

    migration = importlib.import_module(
        "battles.migrations.0019_campaign_tables_in_the_stricter_shape"
    )
    campaign = services.campaign_create(organiser=organiser, name="Liga de antes")
    closed = [{"min": 0, "max": 50, "result": 0}, {"min": 51, "max": 10000, "result": 1}]
    old = {"underdog_bonus": closed, "advance_thresholds": TABLES["advance_thresholds"]}
    Campaign.objects.filter(pk=campaign.pk).update(tables=old)
    migration.forwards(apps, None)
    campaign.refresh_from_db()
    assert campaign.tables == {"underdog_bonus": [closed[0], {"min": 51, "max": None, "result": 1}]}
    assert campaign_tables(campaign) == campaign.tables


def test_a_campaign_reads_its_versions_tables_then_its_own(organiser):
    _pack, version = published(organiser)
    campaign = services.campaign_create(organiser=organiser, name="Liga")
    assert campaign_tables(campaign) == {}
    packs.campaign_pack_move(campaign=campaign, version=version, by=organiser, confirmed=True)
    campaign.refresh_from_db()
    assert campaign_tables(campaign) == TABLES
    assert [s["name"] for s in campaign_scenarios(campaign)] == [
        "Emboscada en el vado",
        "Escaramuza",
    ]
    own = [{"name": "El vado de Sarn", "attacker_defender": False}]
    Campaign.objects.filter(pk=campaign.pk).update(tables={"scenarios": own})
    campaign.refresh_from_db()
    assert campaign_tables(campaign) == {**TABLES, "scenarios": own}
    assert campaign_scenarios(campaign) == own


# The post-battle sequence rolls on the tables in force ---------------------------------------
def _league_on(organiser, version) -> League:
    players = [(quick_user(f"player-t{version.pk}-{n}"), str(n)) for n in (1, 2)]
    return league_on_pack(organiser, version, players, name=f"Liga {version.pk}")


def _injured_leader(league, resolve) -> Fighter:  # noqa: F811 - the fixture
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    # b's leader: D66 = 41, a full recovery on the default table.
    run = resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [4, 1]})
    assert run.status == "applied", run.error
    return leader(b)


def test_a_heros_injury_is_rolled_on_the_packs_table(organiser, resolve):  # noqa: F811
    _pack, version = published(organiser, tables={"hero_injuries": EVERY_ROLL_HARDENS})
    league = _league_on(organiser, version)
    victim = _injured_leader(league, resolve)
    assert [injury["code"] for injury in victim.injuries] == ["hardened"]
    assert "immune-fear" in victim.special_rules


def test_the_campaigns_own_table_wins_over_the_packs(organiser, resolve):  # noqa: F811
    _pack, version = published(organiser, tables={"hero_injuries": EVERY_ROLL_HARDENS})
    league = _league_on(organiser, version)
    own = {"hero_injuries": [{"min": 11, "max": 66, "result": "full_recovery"}]}
    services.campaign_update(campaign=league.campaign, by=organiser, changes={"tables": own})
    victim = _injured_leader(league, resolve)
    assert victim.injuries == []


# The file, a copy, the move ------------------------------------------------------------------
def test_the_round_trip_keeps_the_tables_exactly(organiser, client):
    pack, version = published(organiser)
    assert version.document["tables"] == TABLES
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(organiser)
    text = client.get(f"/packs/{pack.slug}/v{version.number}.yaml").content.decode()
    assert yaml_read(text) == version.document
    again = packs.pack_create(owner=organiser, name="Otra")
    report = packs.pack_import(pack=again, by=organiser, text=text, apply=False)
    assert report.ok, report.refused
    assert "table hero_injuries" in report.created and "table scenarios" in report.created
    changed = yaml_read(text)
    changed["tables"]["exploration"][0]["result"] = 2
    del changed["tables"]["sell_finds"]
    report = packs.pack_import(pack=pack, by=organiser, text=yaml_write(changed), apply=False)
    assert report.changed == ["table exploration"]
    assert report.removed == ["table sell_finds"]
    copied = packs.pack_create(owner=quick_user("copier"), name="Copia", copy_of=version)
    assert draft(copied)["tables"] == TABLES


def test_the_move_preview_names_the_tables_that_change(organiser, client):
    _pack, first = published(organiser, tables={"hero_injuries": EVERY_ROLL_HARDENS})
    _other, second = published(organiser, tables={"exploration": TABLES["exploration"]}, name="B")
    campaign = services.campaign_create(organiser=organiser, name="Liga")
    packs.campaign_pack_move(campaign=campaign, version=first, by=organiser, confirmed=True)
    services.campaign_update(
        campaign=campaign, by=organiser, changes={"tables": {"exploration": TABLES["exploration"]}}
    )
    campaign.refresh_from_db()
    assert packs.campaign_pack_tables(campaign=campaign, version=second) == [
        "Heroes' serious injuries: back to the default table.",
        "Exploration: the campaign's own rows stay in force.",
    ]
    assert packs.campaign_pack_tables(campaign=campaign, version=first) == []
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(organiser)
    page = client.get(f"/packs-adopt/?campaign={campaign.slug}&version={second.pk}")
    assert "Heroes&#x27; serious injuries: back to the default table." in page.content.decode()


def test_the_default_pack_takes_no_tables(league_content, tmp_path):
    from warbands.content_loader import DEFAULT_PACK_PATH, content_pack_load  # noqa: PLC0415

    for file in DEFAULT_PACK_PATH.glob("*.yaml"):
        (tmp_path / file.name).write_bytes(file.read_bytes())
    (tmp_path / "tables.yaml").write_text(yaml_write({"tables": TABLES}))
    with pytest.raises(ValidationError, match="rules engine's tables"):
        content_pack_load(path=tmp_path)


# The pages -----------------------------------------------------------------------------------
def test_the_draft_page_lists_the_tables_and_a_table_is_edited_on_its_page(organiser, author):
    pack = packs.pack_create(owner=organiser, name="Liga")
    page = author.get(f"/packs/{pack.slug}/").content.decode()
    assert 'data-testid="pack-section-tables"' in page and "0 of 9 set" in page
    url = f"/packs/{pack.slug}/draft/tables/exploration/"
    form = author.get(url).content.decode()
    assert "The draft leaves the default table" in form
    assert "- {min: 36, max: null, result: 7}" in form  # the default rows, to start from
    bad = "- {min: 1, max: 10, result: 1}\n- {min: 11, max: 9, result: 2}\n"
    refused = author.post(url, {"rows": bad, "apply": "1"}).content.decode()
    assert "table exploration: row 2: max: less than min" in refused
    assert 'data-testid="table-error"' in refused
    assert draft(pack) == {}
    broken = author.post(url, {"rows": "- {min: 1", "apply": "1"}).content.decode()
    assert "Not valid YAML" in broken
    rows = "- {min: 1, max: 20, result: 1}\n- {min: 21, max: null, result: 3}\n"
    checked = author.post(url, {"rows": rows, "apply": "0"}).content.decode()
    assert "Every entry passes." in checked and draft(pack) == {}
    saved = author.post(url, {"rows": rows, "apply": "1"})
    assert saved.status_code == 302
    assert draft(pack)["tables"]["exploration"] == yaml_read(rows)
    page = author.get(f"/packs/{pack.slug}/").content.decode()
    assert "1 of 9 set" in page and "the pack's, 2 rows" in page
    assert "The draft sets this table" in author.get(url).content.decode()
    back = author.post(f"{url}default/", {"confirmed": "1"})
    assert back.status_code == 302 and "tables" not in draft(pack)


def test_the_public_page_says_which_tables_a_version_sets(organiser, client):
    pack, _version = published(organiser, tables={"hero_injuries": EVERY_ROLL_HARDENS})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(f"/packs/{pack.slug}/").content.decode()
    assert "Campaign tables: Heroes&#x27; serious injuries" in page


@pytest.mark.parametrize("who", ["player", "another organiser"])
def test_no_one_else_edits_the_tables(organiser, client, who):
    pack, _version = published(organiser)
    packs.pack_draft(pack=pack, by=organiser)
    before = draft(pack)
    client.force_login(quick_user(who.replace(" ", "-")))
    url = f"/packs/{pack.slug}/draft/tables/exploration/"
    assert client.get(url).status_code == 403
    assert (
        client.post(url, {"rows": "- {min: 1, max: null, result: 1}", "apply": "1"}).status_code
        == 403
    )
    assert client.post(f"{url}default/", {"confirmed": "1"}).status_code == 403
    assert draft(pack) == before


# The API -------------------------------------------------------------------------------------
def api_for(user) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(user)
    return client


def test_a_table_is_put_and_deleted_through_the_api(organiser):
    pack = packs.pack_create(owner=organiser, name="Liga")
    api = api_for(organiser)
    url = f"/api/v1/packs/{pack.slug}/draft/tables/henchman_injuries/"
    bad = api.put(url, [{"min": 1, "max": 2, "result": "dead"}], format="json")
    assert bad.status_code == 400
    assert bad.json()["error"]["message"] == "table henchman_injuries: no row for 3, 4, 5, 6"
    wrong = api.put(url, [{"min": 1, "max": 6, "result": ""}], format="json")
    assert wrong.json()["error"]["fields"]["row 1"] == [
        "table henchman_injuries: row 1: result: text of 1 to 120 characters"
    ]
    assert api.put(url, "dead", format="json").status_code == 400
    assert draft(pack) == {}
    rows = [{"min": 1, "max": 1, "result": "dead"}, {"min": 2, "max": 6, "result": "fine"}]
    done = api.put(url, rows, format="json")
    assert done.status_code == 200 and done.json()["created"] == ["table henchman_injuries"]
    prices = api.put(
        f"/api/v1/packs/{pack.slug}/draft/tables/sell_finds/",
        {"1": [45, 40, 35, 30, 30, 25]},
        format="json",
    )
    assert prices.status_code == 200
    assert draft(pack)["tables"] == {
        "henchman_injuries": rows,
        "sell_finds": {"1": [45, 40, 35, 30, 30, 25]},
    }
    assert api.delete(url).status_code == 200
    assert api.delete(url).status_code == 404
    assert draft(pack)["tables"] == {"sell_finds": {"1": [45, 40, 35, 30, 30, 25]}}


def test_the_versions_detail_shows_its_tables(organiser):
    pack, version = published(organiser)
    answer = api_for(quick_user("reader")).get(
        f"/api/v1/packs/{pack.slug}/versions/{version.number}/"
    )
    assert answer.status_code == 200
    assert answer.json()["tables"] == TABLES
    assert answer.json()["contents"]["tables"] == len(TABLES)


@pytest.mark.parametrize("who", ["player", "another organiser"])
def test_no_one_else_puts_or_deletes_a_table(organiser, who):
    pack, _version = published(organiser)
    packs.pack_draft(pack=pack, by=organiser)
    before = draft(pack)
    api = api_for(quick_user(who.replace(" ", "-")))
    url = f"/api/v1/packs/{pack.slug}/draft/tables/exploration/"
    assert api.put(url, [{"min": 1, "max": None, "result": 1}], format="json").status_code == 403
    assert api.delete(url).status_code == 403
    assert draft(pack) == before


def test_the_default_pack_refuses_a_table_through_the_api(league_content):
    from warbands.models import ContentPack  # noqa: PLC0415

    editor = quick_user("root-tables", is_staff=True, is_superuser=True)
    pack = ContentPack.objects.get(owner=None, slug="annuminas")
    url = f"/api/v1/packs/{pack.slug}/draft/tables/henchman_injuries/"
    answer = api_for(editor).put(url, [{"min": 1, "max": 6, "result": "fine"}], format="json")
    assert answer.status_code == 400
    assert "rules engine's tables" in answer.json()["error"]["message"]


def test_a_packs_advance_thresholds_are_the_ones_its_warbands_advance_by(organiser, client):
    """The version's ``advance_thresholds`` table is what its warbands' advances are counted
    by (the roster's advances due and the sheet's boxes); the default catalogue's warbands
    keep the rules' thresholds."""
    from warbands.models import HenchmanGroup  # noqa: PLC0415
    from warbands.services.rating import advance_thresholds  # noqa: PLC0415

    thresholds = {"hero": [21, 22, 30], "henchman": [1, 3, 6]}
    _pack, version = published(organiser, tables={"advance_thresholds": thresholds})
    kind = WarbandType.objects.get(pack_version=version, playable=True)
    player = quick_user("player-thresholds")
    warband = warband_services.warband_create(owner=player, warband_type=kind, name="Umbral")
    warband_services.fighter_hire(
        warband=warband, fighter_type=kind.fighter_types.get(role="henchman"), name="B", count=2
    )
    assert advance_thresholds(warband) == ((21, 22, 30), (1, 3, 6))
    HenchmanGroup.objects.filter(warband=warband).update(experience=1)
    warband_services.warband_rating_refresh(warband=warband)
    assert HenchmanGroup.objects.get(warband=warband).advances_due == 1  # the rules': none at 1
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert client.get(f"/warbands/{warband.pk}/").status_code == 200

    default = WarbandType.objects.get(slug="mercenarios-de-rhovanion")
    other = warband_services.warband_create(owner=player, warband_type=default, name="Regla")
    hero, henchman = advance_thresholds(other)
    assert (hero[:1], henchman[:1]) == ((2,), (2,))


def test_a_move_to_a_version_with_other_thresholds_counts_advances_by_them_at_once(organiser):
    """The advances due (the sheet's boxes) follow the version a campaign moves to, without
    waiting for the warband's next roster change."""
    from warbands.models import HenchmanGroup  # noqa: PLC0415

    pack, first = published(
        organiser, tables={"advance_thresholds": {"hero": [2, 4], "henchman": [1, 3, 6]}}
    )
    players = [(quick_user(f"player-thresholds-{label}"), label) for label in ("U", "V")]
    league = league_on_pack(organiser, first, players, name="Liga de Umbrales")
    campaign, warband = league.campaign, league.warband(0)
    HenchmanGroup.objects.filter(warband=warband).update(experience=1)
    warband_services.warband_rating_refresh(warband=warband)
    assert HenchmanGroup.objects.get(warband=warband).advances_due == 1
    version_before = Warband.objects.get(pk=warband.pk).version

    document = {
        **copy.deepcopy(TROLL_HUNTERS),
        "tables": {"advance_thresholds": {"hero": [2, 4], "henchman": [4, 8, 12]}},
    }
    assert packs.pack_import(pack=pack, by=organiser, text=yaml_write(document), apply=True).ok
    second = packs.pack_publish(pack=pack, by=organiser)
    packs.campaign_pack_move(campaign=campaign, version=second, by=organiser, confirmed=True)
    moved = Warband.objects.get(pk=warband.pk)
    assert moved.warband_type.pack_version_id == second.pk
    assert moved.version == version_before + 1
    assert HenchmanGroup.objects.get(warband=warband).advances_due == 0


def test_the_report_form_suggests_the_packs_scenarios(organiser, client):
    """A campaign on a pack with its own scenario list: the report by hand suggests that list,
    as the battle's setup offers it."""
    from tests.battles.factories import first_battle  # noqa: PLC0415

    _pack, version = published(organiser)
    league = _league_on(organiser, version)
    battle = first_battle(league)
    client.force_login(league.user(0))
    page = client.get(f"/battles/{battle.pk}/report/").content.decode()
    assert '<option value="Emboscada en el vado">' in page
    assert '<option value="Escaramuza">' in page and "Pelea callejera" not in page
