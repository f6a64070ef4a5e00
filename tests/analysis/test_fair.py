"""Provably fair dice: derivation, the dice source, record checks, and fairness of the die."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from snakes.engine import (
    GameRecord,
    Roll,
    Rolled,
    Rules,
    SeatInfo,
    Skip,
    apply,
    replay,
    roll,
    start_state,
)
from snakes.fair import (
    FairDice,
    UnverifiableRecord,
    commit,
    dice_key,
    fair_roll,
    fair_rolls,
    play_fair_game,
    verify_record,
)
from tests.analysis.helpers import chi_square_z

DOC = Path(__file__).resolve().parents[2] / "docs" / "FAIR_DICE.md"

SEED = bytes(range(32))
CLIENTS = ["alice", "bob"]
# The known answer published in docs/FAIR_DICE.md.
COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
FIRST_ROLLS = [6, 2, 5, 5, 5, 6, 3, 3, 1, 1, 5, 1]
FIRST_ROLLS_FIVE_FACES = [2, 4, 1, 3, 2, 4, 3, 3, 5, 3, 5, 2]


def test_the_known_answer_matches_the_published_one() -> None:
    assert commit(SEED) == COMMITMENT
    key = dice_key(SEED, CLIENTS)
    assert fair_rolls(key, 12) == FIRST_ROLLS
    assert fair_rolls(key, 12, faces=5) == FIRST_ROLLS_FIVE_FACES
    text = DOC.read_text(encoding="utf-8")
    assert COMMITMENT in text
    assert ", ".join(map(str, FIRST_ROLLS)) in text
    assert ", ".join(map(str, FIRST_ROLLS_FIVE_FACES)) in text


def test_the_dice_key_is_the_server_seed_then_each_client_seeds_hash_in_seat_order() -> None:
    key = dice_key(SEED, ["b", "a"])
    assert key[:32] == SEED and len(key) == 96
    assert key != dice_key(SEED, ["a", "b"])  # seat order matters
    with pytest.raises(ValueError, match="32 bytes"):
        dice_key(SEED[:31], CLIENTS)
    with pytest.raises(ValueError, match="longer than 128"):
        dice_key(SEED, ["x" * 129])


def test_fair_dice_roll_one_index_after_another_like_the_derivation() -> None:
    dice = FairDice(SEED, CLIENTS)
    values = [dice.roll(6) for _ in range(5)] + [dice.roll(5)]
    key = dice_key(SEED, CLIENTS)
    assert values == [*(fair_roll(key, i) for i in range(5)), fair_roll(key, 5, faces=5)]
    assert dice.index == 6
    resumed = FairDice(SEED, CLIENTS, next_index=6)
    assert resumed.roll(6) == fair_roll(key, 6)


def test_the_engine_playing_with_fair_dice_makes_the_record_the_seeds_reproduce() -> None:
    record = GameRecord(seats=(SeatInfo("A"), SeatInfo("B"), SeatInfo("C")), rules=Rules())
    dice = FairDice(SEED, ["a", "b", "c"])
    state = start_state(record)
    values = []
    while not state.over:
        state, events = roll(state, dice)  # the engine asks the dice for each roll
        assert isinstance(events[0], Rolled)
        values.append(events[0].value)
    data = play_fair_game(SEED, ["a", "b", "c"], record=record)
    assert [a["value"] for a in data["actions"]] == values
    assert replay(GameRecord.from_data(data)) == state
    report = verify_record(json.dumps(data))
    assert report.ok and report.rolls_checked == len(values)
    assert data["fair"]["commitment"] == commit(SEED)


def a_game_with_two_sixes_in_a_turn() -> tuple[dict[str, Any], int]:
    """A fair game with a roll made on the 1-5 die, and that roll's action index."""
    for n in range(200):
        seed = bytes([n]) * 32
        data = play_fair_game(seed, CLIENTS)
        state = start_state(GameRecord.from_data(data))
        for index, action in enumerate(GameRecord.from_data(data).actions):
            if state.faces == 5:
                return data, index
            state, _ = apply(state, action)
    raise AssertionError("no game with two sixes in a turn")


def test_after_two_sixes_the_derivation_uses_the_five_faced_die() -> None:
    data, index = a_game_with_two_sixes_in_a_turn()
    key = dice_key(bytes.fromhex(data["fair"]["server_seed"]), CLIENTS)
    assert data["actions"][index]["value"] == fair_roll(key, index, faces=5)
    assert verify_record(data).ok
    # Put a six there (which the 1-5 die never shows): named as tampered, replay refused.
    tampered = copy.deepcopy(data)
    tampered["actions"][index]["value"] = 6
    report = verify_record(tampered)
    assert not report.ok
    assert report.first_tampered is not None
    assert (report.first_tampered.index, report.first_tampered.recorded) == (index, 6)
    assert any("does not replay" in p for p in report.problems)


def test_a_changed_roll_is_named_with_its_index_the_expected_and_the_recorded_value() -> None:
    data = play_fair_game(SEED, CLIENTS)
    tampered = copy.deepcopy(data)
    original = tampered["actions"][9]["value"]
    tampered["actions"][9]["value"] = 1 if original != 1 else 2
    report = verify_record(tampered)
    assert not report.ok and report.commitment_ok
    first = report.first_tampered
    assert first is not None
    assert (first.index, first.action, first.expected) == (9, 10, original)
    assert f"roll #9 (action 10, seat {first.seat})" in report.problems[0]


def test_a_changed_server_seed_breaks_the_commitment() -> None:
    data = play_fair_game(SEED, CLIENTS)
    data["fair"]["server_seed"] = bytes([1] * 32).hex()
    report = verify_record(data)
    assert not report.commitment_ok and not report.ok
    assert "does not match the commitment" in report.problems[0]
    assert report.mismatches  # and the rolls no longer follow from the seeds


def test_a_changed_client_seed_changes_the_rolls() -> None:
    data = play_fair_game(SEED, CLIENTS)
    data["fair"]["client_seeds"] = ["alice", "mallory"]
    report = verify_record(data)
    assert report.commitment_ok and not report.ok and report.mismatches


def test_a_skip_uses_no_roll_number() -> None:
    record = GameRecord(seats=(SeatInfo("A"), SeatInfo("B")))
    dice = FairDice(SEED, CLIENTS)
    state = start_state(record)
    actions: list[Any] = [Skip(0)]
    state, _ = apply(state, Skip(0))
    for _ in range(5):
        action = Roll(state.turn or 0, dice.roll(state.faces))
        state, _ = apply(state, action)
        actions.append(action)
    data = record.with_actions(actions).to_data()
    data["fair"] = dice.fair_section(reveal=True)
    assert verify_record(data).ok
    assert actions[1].value == fair_roll(dice_key(SEED, CLIENTS), 0)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("fair"), "no 'fair' section"),
        (lambda d: d["fair"].pop("server_seed"), "reveals it only when the game is over"),
        (lambda d: d["fair"].update(server_seed="xyz"), "64 lowercase hex"),
        (lambda d: d["fair"].update(commitment=42), "64 lowercase hex"),
        (lambda d: d["fair"].update(client_seeds=["one"]), "1 seed(s) for 2 seat(s)"),
        (lambda d: d["fair"].update(client_seeds=[1, 2]), "not text"),
        (lambda d: d["fair"].update(scheme="dice-v0"), "unknown fair dice scheme"),
        (lambda d: d.pop("seats"), "unreadable game record"),
    ],
)
def test_a_record_that_cannot_be_checked_is_refused_with_the_reason(
    change: Any, words: str
) -> None:
    data = play_fair_game(SEED, CLIENTS, rolls=6)
    change(data)
    with pytest.raises(UnverifiableRecord, match=re.escape(words)):
        verify_record(data)


def test_verify_refuses_what_is_not_a_json_object() -> None:
    for text in ("{", "[1]", b"\xff"):
        with pytest.raises(UnverifiableRecord):
            verify_record(text)


def test_a_million_derived_rolls_look_like_a_fair_die() -> None:
    # Chi-square over the six faces and over pairs of successive rolls (36 cells).
    rolls = fair_rolls(dice_key(SEED, CLIENTS), 1_000_000)
    faces = Counter(rolls)
    assert abs(chi_square_z([faces[f] for f in range(1, 7)], [1_000_000 / 6] * 6)) < 4
    pairs = Counter(zip(rolls[::2], rolls[1::2], strict=True))
    cells = [pairs[(a, b)] for a in range(1, 7) for b in range(1, 7)]
    assert abs(chi_square_z(cells, [500_000 / 36] * 36)) < 4


def test_the_five_faced_die_after_two_sixes_is_fair_too() -> None:
    rolls = fair_rolls(dice_key(SEED, ["x", "y", "z"]), 200_000, faces=5)
    faces = Counter(rolls)
    assert set(faces) == {1, 2, 3, 4, 5}
    assert abs(chi_square_z([faces[f] for f in range(1, 6)], [200_000 / 5] * 5)) < 4


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js for WebCrypto")
def test_the_documented_javascript_recomputes_the_same_rolls(tmp_path: Path) -> None:
    # The browser recipe in docs/FAIR_DICE.md, run as written by Node's WebCrypto.
    blocks = re.findall(r"```js\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert blocks, "docs/FAIR_DICE.md has a js block"
    script = tmp_path / "check.mjs"
    script.write_text(
        blocks[0]
        + f"""
const seed = new Uint8Array({list(SEED)});
console.log(await commitment(seed));
const key = await diceKey(seed, {json.dumps(CLIENTS)});
const six = [], five = [];
for (let i = 0; i < 12; i++) {{ six.push(await fairRoll(key, i, 6)); }}
for (let i = 0; i < 12; i++) {{ five.push(await fairRoll(key, i, 5)); }}
console.log(JSON.stringify([six, five]));
"""
    )
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(
        [node, str(script)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split()
    assert lines[0] == COMMITMENT
    assert json.loads(lines[1]) == [FIRST_ROLLS, FIRST_ROLLS_FIVE_FACES]
