"""Bounded input (free text, names, imports), through the services and the pages:
free text is bounded once (at the model), every import goes through one check, names made of
invisible characters are blank, and a warband on a campaign's record is not deleted."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annuminas.errors import Conflict
from battles.models import Battle
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import first_battle
from tests.warbands.fixtures import fighter_type
from warbands import services
from warbands.limits import NAME_MAX_LENGTH, NOTES_MAX_LENGTH
from warbands.models import Fighter, HenchmanGroup, LedgerEntry, Warband

pytestmark = pytest.mark.django_db

BIG_NOTES = "x" * 2_400_000
INVISIBLE_NAMES = [
    "\u200b",
    "\u200b\u200c\u200d\ufeff",
    " \u2060 ",
    "\u3164",
    "\t \n",
    "\u034f\u034f",  # combining grapheme joiner
    "\ufe00\ufe0f",  # variation selectors
    "\U000e0100",  # variation selector 17
    "\u180e",  # Mongolian vowel separator
    "\u2061\u2062\u2063\u2064",  # invisible operators
    "\u115f\u1160\uffa0",  # Hangul fillers
    "\u200b\u034f\ufe0f\u3164",
]


@pytest.fixture
def browser_client(client, user):
    client.force_login(user)
    return client


def snapshot():
    """Every row an import or an edit could write."""
    return (
        Warband.objects.count(),
        Fighter.objects.count(),
        HenchmanGroup.objects.count(),
        LedgerEntry.objects.count(),
        list(Warband.objects.values_list("name", "notes", "version")),
    )


# --- bounded text -----------------------------------------------------------------------------


def test_notes_over_the_bound_are_refused_and_nothing_changes(warband):
    before = snapshot()
    with pytest.raises(ValidationError) as refused:
        services.warband_update(warband=warband, expected_version=None, notes=BIG_NOTES)
    assert "notes" in refused.value.message_dict
    assert snapshot() == before
    services.warband_update(warband=warband, expected_version=None, notes="n" * NOTES_MAX_LENGTH)
    assert len(Warband.objects.get(pk=warband.pk).notes) == NOTES_MAX_LENGTH


def test_the_model_refuses_what_no_service_checked(warband):
    """Any code path that saves a warband (admin, another app) meets the same bound."""
    warband.notes = "x" * (NOTES_MAX_LENGTH + 1)
    with pytest.raises(ValidationError):
        warband.save()
    warband.notes = "a\x00b"
    with pytest.raises(ValidationError):
        warband.save(update_fields=["notes"])
    assert Warband.objects.get(pk=warband.pk).notes == ""


def test_henchmen_names_made_from_a_long_group_name_fit(warband):
    group = services.fighter_hire(
        warband=warband,
        fighter_type=fighter_type("guerrero-mercenario"),
        name="G" * NAME_MAX_LENGTH,
        count=2,
    )
    names = list(group.members.values_list("name", flat=True))
    assert [len(name) for name in names] == [NAME_MAX_LENGTH, NAME_MAX_LENGTH]
    assert names[0].endswith(" 1") and names[1].endswith(" 2")


# --- blank names -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", INVISIBLE_NAMES)
def test_invisible_names_are_blank_everywhere(warband, make_warband, name):
    with pytest.raises(ValidationError, match="Give it a name"):
        make_warband(name=name)
    with pytest.raises(ValidationError, match="Give it a name"):
        services.warband_update(warband=warband, expected_version=None, name=name)
    with pytest.raises(ValidationError, match="Give it a name"):
        services.fighter_hire(
            warband=warband, fighter_type=fighter_type("capitan-mercenario"), name=name
        )
    assert list(Warband.objects.values_list("name", flat=True)) == ["Los Lobos"]
    assert not Fighter.objects.exists()


def test_names_lose_invisible_ends_but_keep_their_joiners(make_warband, content):
    assert make_warband(name="\u200b Lobos \ufeff").name == "Lobos"
    assert make_warband(name="Hijos\u200dde Elrond").name == "Hijos\u200dde Elrond"
    assert make_warband(name="\u034fLobos \u2764\ufe0f").name == "Lobos \u2764\ufe0f"
    with pytest.raises(ValidationError, match="control characters"):
        make_warband(name="Lo\x00bos")


def test_create_page_says_an_invisible_name_is_required(browser_client, content):
    from warbands.models import WarbandType

    elves = WarbandType.objects.get(slug="elfos-de-rivendel")
    response = browser_client.post(
        reverse("warband-create"), {"name": "\u200b\u200b", "warband_type": elves.pk}
    )
    assert response.status_code == 200 and "Give it a name" in response.content.decode()
    assert not Warband.objects.exists()


def test_edit_page_refuses_big_notes_and_changes_nothing(browser_client, warband):
    before = snapshot()
    response = browser_client.post(
        reverse("warband-edit", args=[warband.pk]),
        {"name": "Los Lobos", "notes": BIG_NOTES, "version": warband.version},
        follow=True,
    )
    assert "Check the name and notes" in response.content.decode()
    assert snapshot() == before


# --- import: one check for every door ----------------------------------------------------------


def _deep(levels: int):
    value: object = 1
    for _level in range(levels):
        value = {"a": value}
    return value


BAD_IMPORTS = {
    "name is a number": lambda d: d["warband"].update(name=123),
    "fighters is a string": lambda d: d.update(fighters="x"),
    "ledger amount 10^20": lambda d: d["ledger"][0].update(amount=10**20),
    "NUL in a name": lambda d: d["fighters"][0].update(name="Bar\x00do"),
    "NUL in the notes": lambda d: d["warband"].update(notes="a\x00b"),
    "invisible name": lambda d: d["fighters"][0].update(name="\u200b\u200b"),
    "notes over the bound": lambda d: d["warband"].update(notes="x" * (NOTES_MAX_LENGTH + 1)),
    "deeply nested advance": lambda d: d["fighters"][0].update(advances=[_deep(60)]),
    "huge advance": lambda d: d["fighters"][0].update(advances=[{"note": "x" * 50_000}]),
    "fighter is not an object": lambda d: d["fighters"].append(7),
    "NUL in an advance record": lambda d: d["fighters"][0].update(
        advances=[{"kind": "skill", "skill": "golpe\x00"}]
    ),
    "NUL in an advance record's key": lambda d: d["fighters"][0].update(
        advances=[{"kind\x00": "skill"}]
    ),
    "lone surrogate in an advance record": lambda d: d["fighters"][0].update(
        advances=[{"kind": "\ud800"}]
    ),
}


@pytest.fixture
def exported(warband, user):
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    return services.warband_export(warband=warband)


@pytest.mark.parametrize("mutation", BAD_IMPORTS.values(), ids=BAD_IMPORTS.keys())
def test_bad_imports_are_refused_by_the_service(exported, user, mutation):
    mutation(exported)
    before = snapshot()
    with pytest.raises(ValidationError):
        services.warband_import(owner=user, data=exported)
    assert snapshot() == before


def _upload(browser_client, content: bytes):
    upload = SimpleUploadedFile("banda.json", content, content_type="application/json")
    return browser_client.post(reverse("warband-import"), {"file": upload}, follow=True)


@pytest.mark.parametrize("mutation", BAD_IMPORTS.values(), ids=BAD_IMPORTS.keys())
def test_bad_imports_through_the_page_are_a_message(browser_client, exported, mutation):
    mutation(exported)
    before = snapshot()
    response = _upload(browser_client, json.dumps(exported).encode())
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse("warband-list")
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert snapshot() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"format": "annuminas.warband", "notes": "' + b"x" * 10_000_000 + b'"}', "too big"),
        (b"\xff\xfe not utf-8", "not JSON"),
        (b"not json", "not JSON"),
    ],
    ids=["100,000-deep", "10 MB", "not UTF-8", "not JSON"],
)
def test_unreadable_files_through_the_page_are_a_message(browser_client, content, message):
    before = snapshot()
    response = _upload(browser_client, content)
    assert response.status_code == 200
    texts = [str(m) for m in response.context["messages"]]
    assert any(message in text for text in texts), texts
    assert snapshot() == before


def test_a_good_file_still_imports_through_the_page(browser_client, exported):
    response = _upload(browser_client, json.dumps(exported).encode())
    copy = Warband.objects.order_by("-pk").first()
    assert response.redirect_chain[-1][0] == reverse("warband-sheet", args=[copy.pk])
    assert copy.imported and copy.fighters.get().name == "Bardo"


# --- deleting a warband on a campaign's record ---------------------------------------------------


@pytest.fixture
def joined(make_league):
    return make_league()


def test_a_warband_that_joined_a_campaign_is_not_deleted(joined):
    warband = joined.warband(0)
    with pytest.raises(Conflict, match="cannot be deleted"):  # the API maps it to 409
        services.warband_delete(warband=warband)
    assert Warband.objects.filter(pk=warband.pk).exists()


def test_delete_page_explains_why_a_played_warband_stays(client, joined):
    battle = first_battle(joined)
    warband = battle.participants.first().warband
    client.force_login(warband.owner)
    response = client.post(
        reverse("warband-delete", args=[warband.pk]), {"confirmed": "1"}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("warband-sheet", args=[warband.pk])
    assert "cannot be deleted" in response.content.decode()
    assert Warband.objects.filter(pk=warband.pk).exists()
    assert Battle.objects.filter(pk=battle.pk).exists()


def test_delete_page_still_deletes_a_warband_nobody_played(browser_client, warband):
    response = browser_client.post(reverse("warband-delete", args=[warband.pk]), {"confirmed": "1"})
    assert response["Location"] == reverse("warband-list")
    assert not Warband.objects.filter(pk=warband.pk).exists()
