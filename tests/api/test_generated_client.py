"""The contract, as a third-party integrator meets it: openapi-python-client generates a client
from /api/v1/schema/, every generated module imports, and a companion app's journey runs through
the generated client against a live server (token, catalogue, a warband made with a retry,
hire, buy, the sheet with its ETag, joining a campaign) with no parse failure. The schema also
passes openapi-spec-validator with no error.

openapi-python-client is a dev dependency (``make install``): this test always runs."""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import os
import pkgutil
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from battles.campaigns import services as campaigns
from tests.db_template import kept_dir
from tests.warbands.fixtures import *  # noqa: F403 - content_tx

PACKAGE = "annuminas_client"
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = APIClient(HTTP_ACCEPT_LANGUAGE="es").get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def _generate(schema: dict, root: Path) -> None:
    generator = shutil.which("openapi-python-client", path=str(BIN)) or shutil.which(
        "openapi-python-client"
    )
    assert generator, "openapi-python-client is a dev dependency: run make install"
    (root / "schema.json").write_text(json.dumps(schema))
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    run = subprocess.run(
        [generator, "generate", "--path", str(root / "schema.json"), "--meta", "none",
         "--output-path", str(root / PACKAGE)],
        capture_output=True, text=True, env=env, cwd=root, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr


@pytest.fixture(scope="module")
def generated(schema):
    """The client package, put on sys.path. Generating it takes a process ~5 s: it is kept (in
    ``tests.db_template.kept_dir``) under the digest of the schema and the generator's version,
    so a run generates it again only when either has changed (a fresh machine, CI, a schema
    change)."""
    digest = hashlib.sha256(json.dumps(schema, sort_keys=True).encode())
    digest.update(importlib.metadata.version("openapi-python-client").encode())
    root = kept_dir() / f"client-{digest.hexdigest()[:16]}"
    if not (root / PACKAGE / "__init__.py").exists():
        building = Path(tempfile.mkdtemp(prefix="client-", dir=kept_dir()))
        _generate(schema, building)
        try:
            building.rename(root)  # atomic; another process may have kept its own first
        except OSError:
            shutil.rmtree(building, ignore_errors=True)
    sys.path.insert(0, str(root))
    yield root / PACKAGE
    sys.path.remove(str(root))
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def test_the_schema_has_no_error_for_a_validator(schema):
    validate(schema)


def test_every_generated_module_imports(generated):
    package = importlib.import_module(PACKAGE)
    failures, count = [], 0
    for module in pkgutil.walk_packages(package.__path__, PACKAGE + "."):
        count += 1
        try:
            importlib.import_module(module.name)
        except Exception as error:  # noqa: BLE001 - each failure is reported by name
            failures.append(f"{module.name}: {type(error).__name__}: {error}")
    assert count > 300
    assert failures == []


def test_a_companion_app_journey_through_the_generated_client(
    generated, live_server, content_tx, make_user, password
):
    from annuminas_client import AuthenticatedClient, Client
    from annuminas_client.api.auth import auth_tokens_create
    from annuminas_client.api.campaigns import campaigns_join_create
    from annuminas_client.api.catalogue import catalogue_warband_types_list
    from annuminas_client.api.equipment import fighters_equipment_create
    from annuminas_client.api.fighters import warbands_fighters_create
    from annuminas_client.api.warbands import warbands_create, warbands_sheet_retrieve
    from annuminas_client.models import (
        JoinRequest,
        TokenCreateRequest,
        WarbandBuyRequest,
        WarbandCreateRequest,
        WarbandHireRequest,
    )

    make_user("ana")
    organiser = make_user("organiser")
    campaign = campaigns.campaign_create(organiser=organiser, name="Liga de Fornost")
    campaigns.campaign_transition(campaign=campaign, by=organiser, state="open")
    base = live_server.url
    anonymous = Client(base_url=base, raise_on_unexpected_status=True)

    made = auth_tokens_create.sync_detailed(
        client=anonymous,
        body=TokenCreateRequest(username="ana", password=password, name="Ana's phone"),
    )
    assert made.status_code == 201 and made.parsed.token
    api = AuthenticatedClient(
        base_url=base, token=made.parsed.token, prefix="Token", raise_on_unexpected_status=True
    )

    types = catalogue_warband_types_list.sync(client=api, page_size=50)
    slugs = {t.slug for t in types.results}
    assert "mercenarios-de-rhovanion" in slugs and types.count == len(types.results)

    body = WarbandCreateRequest(name="Los Osos", warband_type="mercenarios-de-rhovanion")
    key = str(uuid.uuid4())
    created = warbands_create.sync_detailed(client=api, body=body, idempotency_key=key)
    retried = warbands_create.sync_detailed(client=api, body=body, idempotency_key=key)
    assert created.status_code == retried.status_code == 201
    warband = created.parsed
    assert retried.parsed.id == warband.id and retried.headers["Idempotent-Replayed"] == "true"

    hired = warbands_fighters_create.sync(
        warband.id,
        client=api,
        body=WarbandHireRequest(
            fighter_type="capitan-mercenario", name="Bardo", version=warband.version
        ),
    )
    captain = hired.fighter
    bought = fighters_equipment_create.sync(
        captain.id, client=api, body=WarbandBuyRequest(item="espada", version=hired.warband.version)
    )
    assert bought.warband.treasury < hired.warband.treasury

    sheet = warbands_sheet_retrieve.sync_detailed(warband.id, client=api)
    assert sheet.status_code == 200 and sheet.parsed.name == "Los Osos"
    etag = sheet.headers["ETag"]
    again = warbands_sheet_retrieve.sync_detailed(
        warband.id, client=api.with_headers({"If-None-Match": f"W/{etag}"})
    )
    assert again.status_code == 304 and again.headers["ETag"] == etag

    joined = campaigns_join_create.sync(
        client=api, body=JoinRequest(join_code=campaign.join_code, warband=warband.id)
    )
    assert joined.campaign == campaign.slug
    # Every answer parsed whole: nothing the schema does not declare.
    for parsed in (made.parsed, types, warband, hired, bought, sheet.parsed, joined):
        assert parsed.additional_properties == {}, type(parsed).__name__
