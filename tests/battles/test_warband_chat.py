"""A warband as chat text and back: the text survives re-wrapping and re-spacing, the import
reports what matched and what it costs and creates nothing until confirmed, and a text cannot
bring money (a forged treasury is refused)."""

import base64
import json
import re
import zlib

import pytest
from django.conf import settings

from tests.battles.factories import quick_user
from warbands import services as roster
from warbands.models import Equipment, Warband, WarbandType
from warbands.packs import chat
from warbands.packs import services as packs
from warbands.packs.files import yaml_write

from .test_content_packs import TROLL_HUNTERS


@pytest.fixture
def built(league_content):
    """A warband of an organiser's published pack: a leader with a sword and a bow, three
    henchmen with daggers, a dagger in the stash."""
    author = quick_user("pack-author")
    pack = packs.pack_create(owner=author, name="Liga del Norte", visibility="public")
    packs.pack_import(pack=pack, by=author, text=yaml_write(TROLL_HUNTERS), apply=True)
    version = packs.pack_publish(pack=pack, by=author)
    owner = quick_user("chat-owner")
    warband_type = WarbandType.objects.get(pack_version=version)
    warband = roster.warband_create(owner=owner, warband_type=warband_type, name="Los de Fornost")
    types = {t.local_slug: t for t in warband_type.fighter_types.all()}
    items = {i.local_slug: i for i in Equipment.objects.filter(pack_version=version)}
    items |= {i.slug: i for i in Equipment.objects.filter(pack_version=None)}
    chief = roster.fighter_hire(warband=warband, fighter_type=types["cazador-jefe"], name="Hallas")
    for slug in ("espada", "arco"):
        roster.equipment_buy(warband=warband, equipment=items[slug], fighter=chief)
    group = roster.fighter_hire(
        warband=warband, fighter_type=types["batidor"], name="Batidores", count=3
    )
    roster.equipment_buy(warband=warband, equipment=items["espada"], group=group)
    roster.equipment_buy(warband=warband, equipment=items["daga"])
    warband.refresh_from_db()
    return warband


def _data_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(chat.MARKER))


def _rewrapped(text: str) -> str:
    """As a chat may give it back: the data line broken every 23 characters, lines indented,
    blanks doubled."""
    lines = []
    for line in text.splitlines():
        if line.startswith(chat.MARKER):
            blob = line[len(chat.MARKER) + 1 :]
            lines.append(chat.MARKER)
            lines += ["  " + blob[i : i + 23] + " " for i in range(0, len(blob), 23)]
        else:
            lines.append("   " + line.replace(" ", "  "))
    return "\r\n".join(lines)


def test_round_trip_through_a_rewrapped_chat_text(built):
    text = chat.warband_chat_text(warband=built)
    assert text.splitlines()[0] == "Los de Fornost — Troll hunters (Liga del Norte v1)"
    assert "• Batidores ×3 — Batidor — Sword" in text
    player = quick_user("chat-reader")
    report, warband = chat.warband_chat_import(owner=player, text=_rewrapped(text), confirmed=False)
    assert report.ok, report.problems
    assert warband is None and not Warband.objects.filter(owner=player).exists()
    assert "Hallas (Jefe cazador, matched by slug): 78 co" in report.lines
    assert report.treasury == built.treasury

    report, warband = chat.warband_chat_import(owner=player, text=_rewrapped(text), confirmed=True)
    assert warband is not None and warband.owner == player
    assert warband.warband_type == built.warband_type
    assert not warband.imported  # built under the ledger: it may join a league
    again = chat.warband_chat_text(warband=warband)
    assert again == text


def test_a_forged_treasury_is_refused_and_nothing_is_created(built):
    text = chat.warband_chat_text(warband=built)
    blob = _data_line(text)[len(chat.MARKER) + 1 :]
    data = json.loads(zlib.decompress(base64.b64decode(blob)))
    data["treasury"] += 1000
    forged = base64.b64encode(zlib.compress(json.dumps(data).encode())).decode()
    player = quick_user("forger")
    report, warband = chat.warband_chat_import(
        owner=player, text=f"{chat.MARKER} {forged}", confirmed=True
    )
    assert warband is None and not report.ok
    assert any("The text states" in problem for problem in report.problems)
    assert not Warband.objects.filter(owner=player).exists()


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: t.replace(chat.MARKER, "#OTHER"),
        lambda t: t[:-20] + "\n",
        lambda t: t + "A" * 30_000,
        lambda t: re.sub(
            r"(#ANNUMINAS1 )(\S+)",
            lambda m: m[1] + base64.b64encode(zlib.compress(b"[" * 50 + b"]" * 50)).decode(),
            t,
        ),
        lambda t: re.sub(
            r"(#ANNUMINAS1 )(\S+)",
            lambda m: m[1] + base64.b64encode(zlib.compress(b"0" * 5_000_000)).decode(),
            t,
        ),
    ],
)
def test_damaged_or_hostile_texts_are_refused(built, damage):
    player = quick_user("hostile")
    with pytest.raises(Exception) as caught:
        chat.warband_chat_import(
            owner=player, text=damage(chat.warband_chat_text(warband=built)), confirmed=True
        )
    assert caught.type.__name__ == "ValidationError"
    assert not Warband.objects.filter(owner=player).exists()


def test_the_pages(built, client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(built.owner)
    page = client.get(f"/warbands/{built.pk}/chat/").content.decode()
    assert chat.MARKER in page
    text = chat.warband_chat_text(warband=built)
    client.force_login(quick_user("page-reader"))
    checked = client.post("/warbands/import-chat/", {"text": text, "confirmed": "0"})
    assert checked.status_code == 200 and 'data-testid="chat-confirm"' in checked.content.decode()
    created = client.post("/warbands/import-chat/", {"text": text, "confirmed": "1"})
    assert created.status_code == 302
    assert Warband.objects.filter(name="Los de Fornost").count() == 2


def test_hired_swords_travel_in_the_chat_text(league_content):
    """A hired sword is carried by the text and hired again at the pack's fee (his own gear
    comes with him, free); the round trip is exact."""
    from warbands.models import HiredSword

    owner = quick_user("sword-owner")
    kind = WarbandType.objects.get(slug="mercenarios-de-rhovanion")
    warband = roster.warband_create(owner=owner, warband_type=kind, name="Los del Vado")
    roster.fighter_hire(
        warband=warband, fighter_type=kind.fighter_types.get(role="leader"), name="Brand"
    )
    ranger = HiredSword.objects.get(fighter_type__slug="montaraz-errante")
    from warbands.services.hired_swords import hired_sword_hire

    hired_sword_hire(warband=warband, hired_sword=ranger, name="Halbarad")
    warband.refresh_from_db()
    text = chat.warband_chat_text(warband=warband)
    assert "not carried" not in text
    assert re.search(r"• Halbarad — .* \(hired sword\)", text), text
    player = quick_user("sword-reader")
    report, built = chat.warband_chat_import(owner=player, text=_rewrapped(text), confirmed=True)
    assert report.ok, report.problems
    assert any(line.startswith("Halbarad (hired sword") for line in report.lines), report.lines
    assert built.treasury == warband.treasury
    assert built.fighters.get(hired_sword=ranger).name == "Halbarad"
    assert chat.warband_chat_text(warband=built) == text


def test_a_text_with_a_hired_sword_the_pack_lacks_is_refused(built):
    text = chat.warband_chat_text(warband=built)
    blob = _data_line(text)[len(chat.MARKER) + 1 :]
    data = json.loads(zlib.decompress(base64.b64decode(blob)))
    data["swords"] = [{"type": "montaraz-errante", "name": "Halbarad"}]
    forged = base64.b64encode(zlib.compress(json.dumps(data).encode())).decode()
    player = quick_user("sword-forger")
    report, warband = chat.warband_chat_import(
        owner=player, text=f"{chat.MARKER} {forged}", confirmed=True
    )
    assert warband is None and not report.ok
    assert any("Halbarad" in problem for problem in report.problems), report.problems
    assert not Warband.objects.filter(owner=player).exists()
    data["swords"] = [{"type": "montaraz-errante", "name": "Halbarad", "gold": 900}]
    forged = base64.b64encode(zlib.compress(json.dumps(data).encode())).decode()
    with pytest.raises(Exception) as caught:
        chat.warband_chat_import(owner=player, text=f"{chat.MARKER} {forged}", confirmed=True)
    assert caught.type.__name__ == "ValidationError"
