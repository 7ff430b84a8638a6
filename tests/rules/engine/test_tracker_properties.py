"""Properties of the tracker over random battles: the state kept as a snapshot is the state the
whole log folds to, whatever happened; the dice plan's steps are the dice the entry then uses;
a phase's outcomes follow exactly the odds of each blow."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import Dice
from rules.engine.tracker import TrackerError, dice_plan, roll_entry
from tests.rules.engine.tracker_table import A, Table, battle, warrior

HUMAN = "10 3 3 3 3 1 3 1 7"
ARNOR = (11, 12, 13)
ANGMAR = (21, 22, 23)


def table() -> Table:
    return Table(
        battle(
            [
                warrior(11, "Beren", "10 4 4 3 3 2 4 2 8", gear=("espada", "daga"), leader=True),
                warrior(12, "Barahir", HUMAN, gear=("mangual", "arco"), rules=("frenzy",)),
                warrior(13, "Dior", HUMAN, gear=("espada", "escudo-pequeno", "yelmo")),
            ],
            [
                warrior(21, "Gorbag", HUMAN, gear=("hacha",), rules=("fear",), leader=True),
                warrior(22, "Ugluk", HUMAN, gear=("lanza", "escudo", "arco")),
                warrior(23, "Lagduf", HUMAN, gear=("arma-a-dos-manos", "amuleto-de-la-suerte")),
            ],
        )
    )


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["turn", "charge", "fight", "shoot", "status", "fear", "note"]),
        st.integers(0, 2),
        st.integers(0, 2),
        st.integers(0, 10_000),
    ),
    min_size=1,
    max_size=40,
)


def play(t: Table, action: tuple[str, int, int, int]) -> None:
    """Try one action; what the rules refuse is skipped."""
    what, i, j, seed = action
    side = t.state.side or A
    mine, theirs = (ARNOR, ANGMAR) if side == A else (ANGMAR, ARNOR)
    try:
        if what == "turn":
            turn, next_side = t.state.next_turn()
            t.add("turn", turn=turn, side=next_side)
        elif what == "charge":
            t.add("charge", charger=mine[i], targets=[theirs[j]])
        elif what == "fight" and t.state.combats:
            combat = t.state.combats[i % len(t.state.combats)]
            blows = _blows(t, combat)
            t.add("close-combat", seed=seed, combat=combat.id, blows=blows)
        elif what == "shoot":
            t.add("attack", seed=seed, attacker=mine[i], target=theirs[j], mode="shooting")
        elif what == "status":
            t.add("status", fighter=theirs[j], status="knocked_down", by=mine[i])
        elif what == "fear":
            t.add("check", seed=seed, check="fear", fighter=mine[i], against=theirs[j])
        elif what == "note":
            t.add("note", text=f"nota {seed}")
    except TrackerError:
        pass


def _blows(t: Table, combat) -> list[dict]:
    """Every warrior fighting several enemies puts all his attacks on the first."""
    return [
        {"attacker": fighter, "target": combat.contacts(fighter)[0]}
        for fighter in sorted(combat.members)
        if len(combat.contacts(fighter)) > 1
        and t.state.fighters[combat.contacts(fighter)[0]].status == "in_play"
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS)
def test_the_snapshot_is_the_fold_of_the_whole_log(actions):
    t = table()
    for action in actions:
        play(t, action)
        resumed = t.resumed()
        assert resumed.to_snapshot() == t.state.to_snapshot()
        assert resumed.to_dict() == t.state.to_dict()
    folded = t.fold()
    assert folded.to_snapshot() == t.state.to_snapshot()
    assert folded.to_dict() == t.state.to_dict()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS, st.integers(0, 10_000))
def test_the_dice_plan_asks_for_exactly_the_dice_the_entry_uses(actions, seed):
    """Whatever the battle: roll a combat's phase with seeded dice, then replay its faces
    through the plan one by one: each step asks for the faces that come next, and with all of
    them the plan is complete with nothing to spare."""
    t = table()
    for action in actions:
        play(t, action)
    combats = [c for c in t.state.combats if c.id not in t.state.side_turn.fought]
    if t.state.side is None or not combats or t.state.ended:
        return
    payload = {"combat": combats[0].id, "blows": _blows(t, combats[0])}
    dice = Dice(seed=seed)
    try:
        roll_entry(t.state, "close-combat", payload, dice=dice)
    except TrackerError:
        return
    faces = dice.faces_used()
    typed: list[int] = []
    while True:
        plan = dice_plan(t.state, "close-combat", payload, typed)
        if plan.complete:
            break
        assert plan.next.missing > 0
        typed.append(faces[len(typed)])
    assert typed == faces and plan.surplus == 0
    assert dice_plan(t.state, "close-combat", payload, [*faces, 1]).surplus == 1
