"""Logs written before the tracker knew the combats keep working: the stored log (a fixture
written by the tracker of that time, with its rolled results) folds to the same state and the
same report, and the snapshot kept beside a log gives back what the fold gives."""

import json
import pathlib

from rules.engine.tracker import fold, resume

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "legacy_log.json"


def _project(new: dict, old: dict):
    """``new`` cut down to the keys ``old`` has (the state grew keys: combats, states…)."""
    if isinstance(old, dict):
        return {key: _project(new[key], value) for key, value in old.items()}
    if isinstance(old, list):
        return [_project(n, o) for n, o in zip(new, old, strict=True)]
    return new


def test_a_stored_log_folds_to_the_same_state_and_report():
    stored = json.loads(FIXTURE.read_text(encoding="utf-8"))
    state = fold(stored["log"])
    assert state.setup.version == 1 and not state.setup.strict
    assert _project(state.to_dict(), stored["state"]) == stored["state"]
    assert state.report() == stored["report"]


def test_a_stored_log_goes_on_after_the_change():
    """A battle under way when the tracker changed: its next entries are taken as before (a
    single melee attack is still a log without combats' way), and its snapshot resumes it."""
    stored = json.loads(FIXTURE.read_text(encoding="utf-8"))
    state = fold(stored["log"])
    attack = {
        "attacker": 31,  # Beren fights his duel with Ugluk
        "target": 42,
        "mode": "melee",
        "weapon": "espada",
        "result": {"outcome": "wounded", "wounds_lost": 0},
    }
    state.validate("attack", attack)
    again = resume(stored["log"][0]["payload"], state.to_snapshot())
    assert again.to_dict() == state.to_dict()
