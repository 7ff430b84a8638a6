"""Two phones posting at the same moment keep one order; a replayed entry never doubles
(PostgreSQL: the battle row lock serialises the writers)."""

import uuid

import pytest

from battles.battlelog import prebattle, services
from battles.models import BattleLogEntry
from tests.battles.factories import build_league, first_battle
from tests.warbands.test_concurrency import postgres_only, race  # noqa: F401 - fixture
from warbands.content_loader import content_pack_load

pytestmark = pytest.mark.django_db(transaction=True)


def note(battle, user, text: str, client_id: uuid.UUID | None = None):
    def post():
        entry, created = services.battle_log_append(
            battle=battle,
            by=user,
            kind="note",
            payload={"text": text},
            client_id=client_id or uuid.uuid4(),
        )
        return entry.seq, created

    return post


def test_concurrent_posts_keep_one_order_and_replays_never_duplicate(postgres_only, make_user):  # noqa: F811
    content_pack_load()
    league = build_league(make_user, prefix="log-race-")
    battle = first_battle(league)
    prebattle.battle_log_setup(battle=battle, by=league.user(0), client_id=uuid.uuid4())
    players = [league.user(0), league.user(1)]
    outcomes = race(*[note(battle, players[i % 2], f"nota {i}") for i in range(8)])
    assert all(isinstance(o, tuple) for o in outcomes), outcomes
    assert sorted(seq for seq, _created in outcomes) == list(range(2, 10))
    same = uuid.uuid4()
    replays = race(*[note(battle, players[i % 2], "otra vez", client_id=same) for i in range(4)])
    assert all(isinstance(o, tuple) for o in replays), replays
    assert {seq for seq, _created in replays} == {10}
    assert sum(created for _seq, created in replays) == 1
    seqs = list(BattleLogEntry.objects.filter(battle=battle).values_list("seq", flat=True))
    assert seqs == list(range(1, 11))
    # The snapshot each writer read under the lock was its predecessor's: it is the whole fold.
    kept = services.log_state(battle)
    assert kept.last_seq == 10
    assert kept.to_dict() == services.log_state_complete(battle).to_dict()
