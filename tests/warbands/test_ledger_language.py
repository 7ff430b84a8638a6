"""Mixed languages: a ledger line stores a code and its parameters and is worded when
shown, in the reader's language; the profile headers follow the reader's language too."""

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from warbands import services
from warbands.ledger_texts import LEDGER_PARAMS, LEDGER_TEXTS, ledger_text
from warbands.models import LedgerEntry
from warbands.services.ledger import ledger_apply
from warbands.services.unit import lock_warband, roster_atomic

from .fixtures import equipment, fighter_type

pytestmark = pytest.mark.django_db

# Codes whose words are the same in both languages once their parameters are filled in.
SAME_IN_BOTH: set[str] = set()


def client_in(language: str, user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(user)
    return client


def visible(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("code", sorted(LEDGER_TEXTS))
def test_every_code_renders_in_both_languages(code):
    params = LEDGER_PARAMS[code]
    with translation.override("es"):
        spanish = ledger_text(code, params)
    with translation.override("en"):
        english = ledger_text(code, params)
    for text in (spanish, english):
        assert "%(" not in text and "{'term'" not in text and text.strip()
        for value in params.values():
            if isinstance(value, str | int):
                assert str(value) in text
    assert (spanish != english) == (code not in SAME_IN_BOTH), (spanish, english)


class KeysRead(dict):
    """Parameters that remember which of them the words used (a counted line reads its number
    to choose its form, then fills the form: both only through ``%``)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.read: set[str] = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)


def test_every_code_lists_its_parameters():
    assert set(LEDGER_PARAMS) == set(LEDGER_TEXTS)
    for code, message in LEDGER_TEXTS.items():
        for count in (1, 2):  # both forms of a counted line
            params = KeysRead(LEDGER_PARAMS[code])
            params.update({k: count for k, v in params.items() if isinstance(v, int)})
            message % params
            assert params.read == set(LEDGER_PARAMS[code]), code


def test_terms_and_lists_are_worded_when_shown():
    params = {"item": "Espada", "holder": {"term": "stash"}}
    with translation.override("es"):
        assert ledger_text("bought", params) == "Comprado Espada para el alijo"
    with translation.override("en"):
        assert ledger_text("bought", params) == "Bought Espada for the stash"
        assert ledger_text("robbed", {"name": "Ulf", "items": []}) == "Ulf was robbed: —"
        assert ledger_text("dead", {"name": "Ulf", "items": ["Espada", "Arco"]}) == (
            "Ulf is dead; equipment lost: Espada, Arco"
        )


def test_a_batch_job_writing_in_spanish_is_read_in_english(warband):
    with translation.override("es"):
        services.equipment_buy(warband=warband, equipment=equipment("espada"))
    entry = warband.ledger.latest("pk")
    assert (entry.description_code, entry.description_params) == (
        "bought",
        {"item": entry.description_params["item"], "holder": {"term": "stash"}},
    )
    # The item's name too is worded when shown, from the catalogue's names of it.
    assert entry.description_params["item"] == {"names": {"es": "Espada", "en": "Sword"}}
    with translation.override("en"):
        assert entry.text == "Bought Sword for the stash"
    with translation.override("es"):
        assert entry.text == "Comprado Espada para el alijo"
    # The searchable copy is in the site's language whoever wrote it.
    assert entry.description == "Comprado Espada para el alijo"


def test_a_plain_description_and_old_rows_show_as_written(warband):
    entry = services.ledger_record(
        warband=warband, amount=5, reason="adjustment", description="Premio del torneo"
    )
    assert (entry.description_code, entry.text) == ("", "Premio del torneo")
    with translation.override("en"):
        assert LedgerEntry.objects.get(pk=entry.pk).text == "Premio del torneo"


def test_a_wrong_code_or_missing_parameter_is_refused(warband):
    from django.core.exceptions import ValidationError

    @roster_atomic
    def write(**kwargs):
        return ledger_apply(warband=lock_warband(warband), amount=1, reason="adjustment", **kwargs)

    with pytest.raises(ValidationError):
        write(code="no_such_code")
    with pytest.raises(ValidationError):
        write(code="ransom_paid", params={})
    assert warband.ledger.count() == 1  # the starting treasury only


def _hire_and_buy(warband):
    hero = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("campeon-mercenario"), name="Ulf"
    )
    services.equipment_buy(warband=warband, equipment=equipment("espada"), fighter=hero)
    return hero


def test_ledger_page_speaks_the_readers_language(warband, user):
    _hire_and_buy(warband)
    url = reverse("warband-ledger", args=[warband.pk])
    english = visible(client_in("en", user).get(url).content.decode())
    spanish = visible(client_in("es", user).get(url).content.decode())
    assert "Starting treasury" in english and "Hired Ulf (" in english
    assert "Bought " in english and " for Ulf" in english
    assert "Tesoro inicial" in spanish and "Reclutado Ulf (" in spanish
    assert "Comprado " in spanish and " para Ulf" in spanish
    assert "Reclutado" not in english and "Hired" not in spanish


def test_ledger_api_and_export_speak_the_readers_language(warband, user):
    _hire_and_buy(warband)
    client = client_in("en", user)
    api = client.get(f"/api/v1/warbands/{warband.pk}/ledger/", HTTP_ACCEPT_LANGUAGE="en")
    rows = api.json()["results"] if "results" in api.json() else api.json()
    hired = next(row for row in rows if row["reason"] == "hire")
    assert hired["description"].startswith("Hired Ulf (")
    assert hired["description_code"] == "hired_hero"
    assert hired["description_params"]["name"] == "Ulf"
    spanish = client_in("es", user).get(
        f"/api/v1/warbands/{warband.pk}/ledger/", HTTP_ACCEPT_LANGUAGE="es"
    )
    rows = spanish.json()["results"] if "results" in spanish.json() else spanish.json()
    assert next(r for r in rows if r["reason"] == "hire")["description"].startswith("Reclutado")
    exported = client.get(reverse("warband-export", args=[warband.pk])).json()
    assert [row["description"] for row in exported["ledger"]][:2] == [
        "Starting treasury",
        hired["description"],
    ]


def test_sheet_profile_headers_follow_the_language(warband, user):
    _hire_and_buy(warband)
    url = reverse("warband-sheet", args=[warband.pk])
    english = client_in("en", user).get(url).content.decode()
    spanish = client_in("es", user).get(url).content.decode()

    def headers(html: str) -> list[str]:
        table = re.search(r'data-testid="profile">\s*<thead>(.*?)</thead>', html, re.S).group(1)
        return re.findall(r"<th[^>]*>([^<]*)</th>", table)

    assert headers(english) == ["M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"]
    assert headers(spanish) == ["M", "HA", "HP", "F", "R", "H", "I", "A", "L"]


LEDGER_WRITERS = {"ledger_apply", "ledger_record", "ledger_event"}


def _app_sources():
    root = Path(settings.BASE_DIR)
    for app in ("annuminas", "warbands", "battles", "rules"):
        for path in (root / app).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path


def _worded_here(value: ast.expr) -> bool:
    """Words written by the app at write time (a translation, a format, a literal), not a
    description handed on (an import replays the file's own lines as they were)."""
    if isinstance(value, ast.BinOp | ast.JoinedStr):
        return True
    if isinstance(value, ast.Constant):
        return bool(value.value)
    if isinstance(value, ast.Call):
        name = getattr(value.func, "id", None) or getattr(value.func, "attr", None)
        return name in {"_", "gettext", "gettext_lazy", "pgettext", "ngettext"}
    return False


def test_no_writer_freezes_a_ledger_line_in_its_own_language():
    """Every ledger line the app writes says what happened with a code and its parameters
    (worded when shown); a ``description`` translated at write time would stay in the writer's
    language (a batch job writes Spanish)."""
    frozen = []
    for path in _app_sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name not in LEDGER_WRITERS:
                continue
            for keyword in node.keywords:
                if keyword.arg == "description" and _worded_here(keyword.value):
                    frozen.append(f"{path.relative_to(settings.BASE_DIR)}:{node.lineno}")
    assert frozen == []
