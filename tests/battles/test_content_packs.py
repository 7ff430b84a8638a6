"""Organisers' content packs: the one check of a pack's content, its YAML file with a dry run,
publishing versions, a campaign adopting one and moving to a new version only when told."""

import copy

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from annuminas.errors import Conflict
from battles.campaigns import services
from battles.models import Campaign
from tests.battles.factories import league_on_pack, quick_user
from tests.battles.test_postbattle import fight, leader, out_of_action
from warbands import services as warband_services
from warbands.models import EquipmentItem, LedgerEntry, PackVersion, WarbandType
from warbands.packs import services as packs
from warbands.packs.document import SECTIONS, document_check
from warbands.packs.files import pack_yaml, yaml_read, yaml_write
from warbands.packs.known import known_default

from .test_postbattle import resolve  # noqa: F401 - the fixture

TROLL_HUNTERS = {
    "equipment_lists": {
        "equipo-cazadores": {
            "name": "Equipo de cazadores",
            "items": ["daga", "espada", {"arco": {"cost": 8}}],
            "credit": "Liga del Norte, p. 3",
        }
    },
    "warband_types": {
        "cazadores-de-trolls": {
            "name": "Cazadores de trolls",
            "en": {"name": "Troll hunters"},
            "race": "human",
            "max_size": 12,
            "fighter_types": {
                "cazador-jefe": {
                    "name": "Jefe cazador",
                    "role": "leader",
                    "cost": 60,
                    "profile": "10 4 4 3 3 1 4 1 8",
                    "xp": 20,
                    "equipment": "equipo-cazadores",
                    "skills": ["combate"],
                },
                "rastreador": {
                    "name": "Rastreador",
                    "role": "hero",
                    "cost": 30,
                    "max": 2,
                    "profile": "10 3 4 3 3 1 3 1 7",
                    "equipment": "equipo-cazadores",
                },
                "batidor": {
                    "name": "Batidor",
                    "role": "henchman",
                    "cost": 25,
                    "profile": "10 3 3 3 3 1 3 1 7",
                    "equipment": "equipo-cazadores",
                    "rules": ["hatred"],
                },
            },
        }
    },
}


@pytest.fixture
def organiser(league_content):
    return quick_user("organiser-packs")


def published_pack(organiser, document=TROLL_HUNTERS, **extra):
    pack = packs.pack_create(owner=organiser, name="Liga del Norte", **extra)
    report = packs.pack_import(pack=pack, by=organiser, text=yaml_write(document), apply=True)
    assert report.ok, report.refused
    version = packs.pack_publish(pack=pack, by=organiser)
    return pack, version


def test_default_pack_passes_the_check(league_content):
    assert document_check(packs.default_document()) == []


def test_checking_a_copy_of_the_default_pack_reads_the_catalogue_once_per_section(
    league_content, django_assert_max_num_queries
):
    """A pack copied from the default one points at the default catalogue thousands of times;
    the check reads each section's slugs and the races' maxima once, not once a reference."""
    document = packs.default_document()
    with django_assert_max_num_queries(8):
        assert document_check(document, known=known_default()) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["warband_types"]["cazadores-de-trolls"]["fighter_types"]["batidor"].update(
                profile="10 3 3 5 3 1 3 1 7"
            ),
            "fighter type batidor: profile: above the race's maximum in s",
        ),
        (
            lambda d: d["warband_types"]["cazadores-de-trolls"]["fighter_types"]["batidor"].update(
                rules=["flies"]
            ),
            "fighter type batidor: rules: rules the rules engine does not know: flies",
        ),
        (
            lambda d: d["equipment_lists"]["equipo-cazadores"]["items"].append("lanzallamas"),
            "equipment list equipo-cazadores: items: unknown equipment: lanzallamas",
        ),
        (
            lambda d: d["warband_types"]["cazadores-de-trolls"].update(name=""),
            "warband type cazadores-de-trolls: name: the Spanish name is required",
        ),
        (
            lambda d: d["warband_types"]["cazadores-de-trolls"]["fighter_types"]["batidor"].update(
                cost=-5
            ),
            "fighter type batidor: cost: a whole number from 0 to 5000",
        ),
        (
            lambda d: d["warband_types"]["cazadores-de-trolls"]["fighter_types"]["batidor"].update(
                cost="25"
            ),
            "fighter type batidor: cost: a whole number from 0 to 5000",
        ),
        (
            lambda d: d["warband_types"]["cazadores-de-trolls"].update(colour="red"),
            "warband type cazadores-de-trolls: colour: unknown key",
        ),
        (
            lambda d: d["warband_types"]["cazadores-de-trolls"]["fighter_types"][
                "rastreador"
            ].update(role="leader"),
            "warband type cazadores-de-trolls: fighter_types: needs exactly one leader type",
        ),
    ],
)
def test_every_problem_names_its_entry_and_field(organiser, change, expected):
    document = copy.deepcopy(TROLL_HUNTERS)
    change(document)
    pack = packs.pack_create(owner=organiser, name="Liga")
    report = packs.pack_import(pack=pack, by=organiser, text=yaml_write(document), apply=True)
    assert not report.ok
    assert expected in report.refused
    assert pack.versions.get().document == {}  # nothing written


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x: " + "a" * 600_000, "The file is larger than 512 KB."),
        ("a: " + "[" * 50 + "]" * 50, "Nested deeper than 8 levels."),
        ("warband_types:\n  a: {name: A}\n  a: {name: B}\n", "line 3: a given twice"),
        ("a: &x [1]\nb: *x\n", "Anchors and aliases (& and *) are not allowed."),
        ("a: !!python/object:os.system ls\n", "Tags (!) are not allowed."),
        ("warband_types: [1, 2]\n", "warband_types: must be a mapping of slug to entry"),
        ("spells: {}\n", "spells: unknown section"),
        ("a: [\n", "Not valid YAML (line 2)."),
    ],
)
def test_broken_or_malicious_files_get_a_report_and_change_nothing(organiser, text, expected):
    pack = packs.pack_create(owner=organiser, name="Liga")
    report = packs.pack_import(pack=pack, by=organiser, text=text, apply=True)
    assert not report.ok
    assert any(expected in line for line in report.refused), report.refused
    assert pack.versions.get().document == {}


def test_the_exported_file_reads_in_order_whatever_order_the_document_came_back_in(organiser):
    """PostgreSQL's jsonb hands keys back by length: the file puts sections in the format's
    order, entries by role then name, keys as the forms show them — and reads back the same."""
    pack, version = published_pack(organiser)

    def shuffled(value):
        if isinstance(value, dict):
            return {k: shuffled(value[k]) for k in sorted(value, key=lambda k: (len(k), k))}
        return value

    text = pack_yaml(shuffled(version.document))
    assert yaml_read(text) == TROLL_HUNTERS
    lines = text.splitlines()
    sections = [line[:-1] for line in lines if line and not line.startswith(" ")]
    assert sections == [s for s in SECTIONS if s in TROLL_HUNTERS]
    kind = "  cazadores-de-trolls:"
    fighters = lines.index("    fighter_types:", lines.index(kind))
    first = lines[fighters + 1].strip().rstrip(":")
    assert (
        TROLL_HUNTERS["warband_types"]["cazadores-de-trolls"]["fighter_types"][first]["role"]
        == "leader"
    )
    entry = lines[lines.index(kind) + 1 :]
    assert entry[0].strip().startswith("name:")


def test_round_trip_is_exact_and_the_dry_run_lists_what_changes(organiser):
    pack, version = published_pack(organiser)
    text = yaml_write(version.document)
    assert yaml_read(text) == version.document == TROLL_HUNTERS
    changed = copy.deepcopy(TROLL_HUNTERS)
    changed["warband_types"]["cazadores-de-trolls"]["fighter_types"]["batidor"]["cost"] = 30
    changed["equipment_lists"]["otra-lista"] = {"name": "Otra", "items": ["daga"]}
    report = packs.pack_import(pack=pack, by=organiser, text=yaml_write(changed), apply=False)
    assert report.ok
    assert report.created == ["equipment list otra-lista"]
    assert report.changed == ["warband type cazadores-de-trolls"]
    assert "equipment list equipo-cazadores" in report.unchanged
    draft = pack.versions.get(state=PackVersion.State.DRAFT)
    assert draft.number == 2 and draft.document == TROLL_HUNTERS  # a dry run writes nothing


def test_a_published_version_never_changes(organiser):
    _pack, version = published_pack(organiser)
    version.document = {}
    with pytest.raises(ValidationError):
        version.save()


def test_only_the_author_edits_a_pack_and_content_editors_keep_the_default(organiser):
    pack, _version = published_pack(organiser)
    other = quick_user("another-organiser")
    for action in (
        lambda: packs.pack_import(pack=pack, by=other, text="{}", apply=True),
        lambda: packs.pack_publish(pack=pack, by=other),
        lambda: packs.pack_update(pack=pack, by=other, name="Mía"),
    ):
        with pytest.raises(PermissionDenied):
            action()
    default = WarbandType.objects.filter(pack_version=None).first().pack
    assert not packs.may_edit(default, organiser)
    assert not packs.may_read(pack, other)  # private
    packs.pack_update(pack=pack, by=organiser, visibility="public")
    assert packs.may_read(pack, other)


def test_a_player_builds_a_legal_warband_from_the_adopted_pack(organiser):
    pack, version = published_pack(organiser, visibility="public")
    campaign = services.campaign_create(organiser=organiser, name="Liga del Norte")
    packs.campaign_pack_move(campaign=campaign, version=version, by=organiser, confirmed=True)
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.OPEN)
    player = quick_user("player-packs")
    warband_type = WarbandType.objects.get(pack_version=version, playable=True)
    assert warband_type.local_slug == "cazadores-de-trolls"
    warband = warband_services.warband_create(
        owner=player, warband_type=warband_type, name="Los de Fornost"
    )
    leader = warband_type.fighter_types.get(role="leader")
    chief = warband_services.fighter_hire(warband=warband, fighter_type=leader, name="Hallas")
    bow = leader.equipment_list.entries.get(equipment__slug="arco")
    assert bow.price == 8
    warband_services.equipment_buy(warband=warband, equipment=bow.equipment, fighter=chief)
    services.campaign_join(
        campaign=campaign, user=player, warband=warband, join_code=campaign.join_code
    )
    warband.refresh_from_db()
    assert warband.treasury == 500 - 60 - 8
    assert warband.pack_version_id == version.pk
    # A warband of the default catalogue does not join a league that plays another pack.
    other = quick_user("player-default")
    default_type = WarbandType.objects.filter(pack_version=None, playable=True).first()
    stranger = warband_services.warband_create(owner=other, warband_type=default_type, name="X")
    with pytest.raises(ValidationError):
        services.campaign_join(
            campaign=campaign, user=other, warband=stranger, join_code=campaign.join_code
        )


def test_a_new_version_is_previewed_and_moves_the_campaign_only_when_confirmed(organiser):
    pack, version = published_pack(organiser)
    campaign = services.campaign_create(organiser=organiser, name="Liga del Norte")
    packs.campaign_pack_move(campaign=campaign, version=version, by=organiser, confirmed=True)
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.OPEN)
    player = quick_user("player-moves")
    warband_type = WarbandType.objects.get(pack_version=version, playable=True)
    warband = warband_services.warband_create(owner=player, warband_type=warband_type, name="W")
    leader = warband_type.fighter_types.get(role="leader")
    chief = warband_services.fighter_hire(warband=warband, fighter_type=leader, name="Hallas")
    sword = leader.equipment_list.entries.get(equipment__slug="espada").equipment
    warband_services.equipment_buy(warband=warband, equipment=sword, fighter=chief)
    services.campaign_join(
        campaign=campaign, user=player, warband=warband, join_code=campaign.join_code
    )
    ledger_before = list(LedgerEntry.objects.filter(warband=warband).values_list("pk", "amount"))

    changed = copy.deepcopy(TROLL_HUNTERS)
    changed["warband_types"]["cazadores-de-trolls"]["fighter_types"]["cazador-jefe"]["cost"] = 70
    packs.pack_import(pack=pack, by=organiser, text=yaml_write(changed), apply=True)
    second = packs.pack_publish(pack=pack, by=organiser)
    assert second.number == 2

    preview = packs.campaign_pack_move(
        campaign=campaign, version=second, by=organiser, confirmed=False
    )
    (change,) = preview
    assert change.legal and change.cost_change == 10
    assert "Hallas (Jefe cazador): 60 → 70 co" in change.lines
    warband.refresh_from_db()
    campaign.refresh_from_db()
    assert campaign.pack_version_id == version.pk  # not moved yet
    assert warband.warband_type.pack_version_id == version.pk
    assert warband.fighters.get().fighter_type.pack_version_id == version.pk

    with pytest.raises(PermissionDenied):
        packs.campaign_pack_move(campaign=campaign, version=second, by=player, confirmed=True)
    packs.campaign_pack_move(campaign=campaign, version=second, by=organiser, confirmed=True)
    warband.refresh_from_db()
    campaign.refresh_from_db()
    assert campaign.pack_version_id == second.pk
    assert warband.warband_type.pack_version_id == second.pk
    assert warband.fighters.get().fighter_type.cost == 70
    assert EquipmentItem.objects.get(warband=warband).equipment == sword  # the default's
    # The ledger is never rewritten.
    assert list(LedgerEntry.objects.filter(warband=warband).values_list("pk", "amount")) == (
        ledger_before
    )


def test_a_version_without_the_warbands_type_refuses_the_move(organiser):
    pack, version = published_pack(organiser)
    campaign = services.campaign_create(organiser=organiser, name="Liga")
    packs.campaign_pack_move(campaign=campaign, version=version, by=organiser, confirmed=True)
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.OPEN)
    player = quick_user("player-refused")
    warband_type = WarbandType.objects.get(pack_version=version, playable=True)
    warband = warband_services.warband_create(owner=player, warband_type=warband_type, name="W")
    services.campaign_join(
        campaign=campaign, user=player, warband=warband, join_code=campaign.join_code
    )
    renamed = copy.deepcopy(TROLL_HUNTERS)
    renamed["warband_types"] = {"otros": renamed["warband_types"]["cazadores-de-trolls"]}
    packs.pack_import(pack=pack, by=organiser, text=yaml_write(renamed), apply=True)
    second = packs.pack_publish(pack=pack, by=organiser)
    with pytest.raises(Conflict):
        packs.campaign_pack_move(campaign=campaign, version=second, by=organiser, confirmed=True)
    campaign.refresh_from_db()
    assert campaign.pack_version_id == version.pk
    assert not EquipmentItem.objects.filter(warband=warband).exists()


def test_copy_of_the_default_pack_publishes(organiser):
    pack = packs.pack_create(owner=organiser, name="Copia", copy_of="default")
    version = packs.pack_publish(pack=pack, by=organiser)
    assert (
        WarbandType.objects.filter(pack_version=version).count()
        == WarbandType.objects.filter(pack_version=None).count()
    )


def test_the_preview_reads_a_fixed_number_of_queries(organiser, django_assert_max_num_queries):
    pack, version = published_pack(organiser)
    campaign = services.campaign_create(organiser=organiser, name="Liga")
    packs.campaign_pack_move(campaign=campaign, version=version, by=organiser, confirmed=True)
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.OPEN)
    warband_type = WarbandType.objects.get(pack_version=version, playable=True)
    leader = warband_type.fighter_types.get(role="leader")
    henchman = warband_type.fighter_types.get(role="henchman")
    sword = leader.equipment_list.entries.get(equipment__slug="espada").equipment

    def join(number: int) -> None:
        player = quick_user(f"player-q{number}")
        warband = warband_services.warband_create(
            owner=player, warband_type=warband_type, name=f"W{number}"
        )
        chief = warband_services.fighter_hire(warband=warband, fighter_type=leader, name="J")
        warband_services.fighter_hire(warband=warband, fighter_type=henchman, name="G", count=2)
        warband_services.equipment_buy(warband=warband, equipment=sword, fighter=chief)
        services.campaign_join(
            campaign=campaign, user=player, warband=warband, join_code=campaign.join_code
        )

    join(1)
    with django_assert_max_num_queries(7) as few:
        packs.campaign_pack_preview(campaign=campaign, version=version)
    for number in range(2, 7):
        join(number)
    with django_assert_max_num_queries(len(few.captured_queries)):
        changes = packs.campaign_pack_preview(campaign=campaign, version=version)
    assert len(changes) == 6 and all(c.legal and c.cost_change == 0 for c in changes)


def test_a_league_on_a_pack_plays_a_battle_through_the_post_battle_sequence(
    organiser,
    resolve,  # noqa: F811 - the fixture imported above
):
    _pack, version = published_pack(organiser)
    players = [(quick_user(f"player-pb{n}"), str(n)) for n in (1, 2)]
    league = league_on_pack(organiser, version, players, name="Liga del Norte")
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    run = resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [4, 1]})
    assert run.status == "applied", run.error
    assert leader(a).experience == 20 + 3  # the pack's starting experience, then the battle's
    assert leader(a).fighter_type.pack_version_id == version.pk


def test_the_admin_lists_the_default_catalogue_only(organiser, client):
    _pack, version = published_pack(organiser)
    editor = quick_user("root-packs", is_staff=True, is_superuser=True)
    client.force_login(editor)
    page = client.get("/admin/warbands/warbandtype/").content.decode()
    assert "Cazadores de trolls" not in page
    row = WarbandType.objects.get(pack_version=version)
    assert client.get(f"/admin/warbands/warbandtype/{row.pk}/change/").status_code == 302
