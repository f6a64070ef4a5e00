"""How to play and the FAQ, built from the board and rule data the engine plays.

Every number here comes from the board or the rules, so the pages can never disagree
with the game: swap the board and they change.
"""

from __future__ import annotations

from typing import Any

from snakes import __version__
from snakes.engine import FINISH, JUNGLE, MAX_SEATS, MAX_SIXES, Board, Jump
from snakes.words import ordinal


def _pair(jump: Jump | None) -> tuple[int, int]:
    return (jump.start, jump.end) if jump else (0, 0)


def _examples(board: Board) -> dict[str, int]:
    big_from, big_to = _pair(board.biggest_ladder)
    cruel = max(board.snakes, key=lambda j: j.start, default=None)
    others = [s for s in board.snakes if s != cruel]
    long_from, long_to = _pair(max(others, key=lambda j: j.start - j.end, default=None))
    cruel_from, cruel_to = _pair(cruel)
    return {
        "big_from": big_from,
        "big_to": big_to,
        "snake_from": long_from,
        "snake_to": long_to,
        "cruel_from": cruel_from,
        "cruel_to": cruel_to,
        "ladders": len(board.ladders),
        "snakes": len(board.snakes),
    }


def build_content(board: Board = JUNGLE) -> dict[str, Any]:
    """The How to play and FAQ pages as data; the browser shows them as text."""
    x = _examples(board)
    short = FINISH - x["cruel_from"]
    cruel_where = "one short of the finish" if short == 1 else f"{short} short of the finish"
    howto = [
        {
            "title": "1. Pick a mode",
            "paragraphs": [
                f"Choose Play with AI to race 1–{MAX_SEATS - 1} automatic opponents, "
                f"Pass & Play to share one device with 2–{MAX_SEATS} friends, or Play Online "
                "to race friends in a private room. Give each seat a name and a token colour, "
                "then tap Start Game."
            ],
        },
        {
            "title": "2. Choose your game rules",
            "paragraphs": [
                "Before the match starts, pick how it should finish. "
                f"Classic Mode: the first player to reach {FINISH} wins and the game ends on "
                f"the spot. Last One Standing: reaching {FINISH} locks in your finishing "
                f"position — {ordinal(1)}, {ordinal(2)}, {ordinal(3)}… — and the rest keep "
                f"racing until everyone reaches {FINISH}. In online rooms the host picks the "
                "rule for the whole table."
            ],
        },
        {
            "title": "3. Roll the die",
            "paragraphs": [
                "On your turn, tap the big Roll button. The die tumbles and shows 1–6, and "
                "your token walks that many squares along the numbered path — square 1 at the "
                f"bottom-left, snaking row by row up to {FINISH}."
            ],
        },
        {
            "title": "4. Climb ladders",
            "paragraphs": [
                "Land exactly on the bottom of a ladder and your token climbs straight to the "
                "top square. It is the fastest way up the board — the biggest ladder rockets "
                f"you from {x['big_from']} all the way to {x['big_to']}."
            ],
        },
        {
            "title": "5. Dodge snakes",
            "paragraphs": [
                "Land on a snake's head and you slide down to its tail. The "
                f"{x['snake_from']} snake drops you back to {x['snake_to']}, and the cruellest "
                f"one waits on {x['cruel_from']} — {cruel_where} — to send you down to "
                f"{x['cruel_to']}. Snake tails are safe — only heads bite."
            ],
        },
        {
            "title": "6. Sixes roll again",
            "paragraphs": [
                "Roll a six and you get one bonus roll after your move. But two sixes in a row "
                "is the limit — a third six is never dealt, so the run always ends with a 1–5."
            ],
        },
        {
            "title": f"7. Finish exactly on {FINISH}",
            "paragraphs": [
                f"You need the exact count to land on square {FINISH}. If you roll more than "
                "you need, your token stays put and the turn passes. In Classic Mode the first "
                f"token on {FINISH} wins the game; in Last One Standing it takes "
                f"{ordinal(1)} place and the race continues until everyone finishes."
            ],
        },
        {
            "title": "Starting off the board",
            "paragraphs": [
                "Everyone starts off the board on square 0. Your very first roll carries you "
                "straight onto the board — no six is needed to begin."
            ],
        },
        {
            "title": "Sharing a square",
            "paragraphs": [
                "Any number of tokens can rest on the same square. There is no capturing in "
                "Snakes & Ladders — the race is against the board, not each other."
            ],
        },
        {
            "title": "House rules",
            "paragraphs": [
                "The exact-finish rule and the six-rolls-again rule can each be toggled in the "
                "Snake settings, so you can play the version your family grew up with."
            ],
        },
        {
            "title": "Every ladder and snake on the board",
            "paragraphs": [
                f"The {board.name} board uses these {x['ladders']} ladders and {x['snakes']} "
                "snakes. A ladder only works from its bottom square and a snake only from its "
                "head; landing on the other end does nothing."
            ],
            "ladders": [[j.start, j.end] for j in board.ladders],
            "snakes": [[j.start, j.end] for j in board.snakes],
        },
        {
            "title": "Playing with others",
            "paragraphs": [
                "In pass & play, hand the device to whoever the glowing seat card names. In "
                "online rooms, everyone rolls from their own device — the room waits for the "
                "current player, and if someone stalls or disconnects, their turn is skipped "
                "after the countdown so nobody is stuck waiting; no roll is ever made on their "
                "behalf."
            ],
        },
    ]
    need = 4
    faq = [
        {
            "question": f"What happens if I roll more than I need to reach {FINISH}?",
            "answer": (
                f"With the exact-finish rule (on by default) your token stays where it is and "
                f"the turn passes. On {FINISH - need} you need exactly {need}: a 5 or a 6 "
                "leaves you waiting. With the rule off, any roll that reaches or passes "
                f"{FINISH} finishes."
            ),
        },
        {
            "question": "Why does a third six never come?",
            "answer": (
                f"Each six gives one bonus roll, but {MAX_SIXES} sixes in a row is the limit. "
                f"After {MAX_SIXES} sixes in one turn the die is rolled from 1–5 only, so your "
                "run always ends with a 1–5. The count starts again at zero every turn."
            ),
        },
        {
            "question": "I rolled a six and landed on a snake. Do I still roll again?",
            "answer": (
                "Yes. You slide down first, then take your bonus roll — a six earns it whether "
                "the move ended on a snake, a ladder or a plain square."
            ),
        },
        {
            "question": f"What if my six would take me past {FINISH}?",
            "answer": (
                "With the exact-finish rule your token stays put, the turn passes and there is "
                "no bonus roll: a roll that cannot be moved earns nothing."
            ),
        },
        {
            "question": "Can two tokens share a square?",
            "answer": (
                "Yes, any number can. There is no capturing — the race is against the board."
            ),
        },
        {
            "question": "How does Last One Standing end?",
            "answer": (
                f"Each player who reaches {FINISH} takes the next place and is skipped in the "
                f"turn order. The match ends when every player still in the game has reached "
                f"{FINISH}; the result screen shows the whole finishing order. A player who "
                "leaves is ranked after all finishers."
            ),
        },
        {
            "question": "What do the house rules change?",
            "answer": (
                "Exact finish: on, you must land exactly on "
                f"{FINISH}; off, any roll that reaches or passes it finishes. Sixes roll again: "
                "on, a six earns one bonus roll (two in a row at most); off, a six is an "
                "ordinary roll. Set the defaults in Settings; change them for one game on the "
                "setup screen."
            ),
        },
        {
            "question": "Do I need a six to start?",
            "answer": (
                "No. Everyone starts on square 0 and the very first roll enters the board. "
                f"Roll a 1 and you land on 1 — and on this board that is the foot of a ladder to "
                f"{board.destination(1)}."
                if board.destination(1) != 1
                else "No. Everyone starts on square 0 and the very first roll enters the board."
            ),
        },
        {
            "question": "What if someone stops playing in an online room?",
            "answer": (
                "Each roll has a countdown. When it runs out the turn is skipped and everyone "
                "is told; nobody ever rolls for you. Three missed turns in a row mark a player "
                "as away, and the host may remove them."
            ),
        },
    ]
    faq += _extra_faq()
    return {"version": __version__, "board": board.to_data(), "howto": howto, "faq": faq}


def _extra_faq() -> list[dict[str, str]]:
    """Boards, odds and fair dice: answers whose figures come from the shipped boards."""
    from snakes.server.boards import board_catalogue  # noqa: PLC0415 - needs numpy, only here

    boards = board_catalogue()
    quickest = min(boards, key=lambda b: b["median_turns"])
    longest = max(boards, key=lambda b: b["median_turns"])
    listed = "; ".join(f"{b['title']}, {b['p10_turns']}–{b['p90_turns']}" for b in boards)
    return [
        {
            "question": "Can we play a shorter game?",
            "answer": (
                f"Yes: pick another board on the setup screen. {quickest['title']} is the "
                f"quickest (half of all races are done within {quickest['median_turns']} "
                f"turns), {longest['title']} the longest. Eight races in ten take, for one "
                f"player, this many turns: {listed}."
            ),
        },
        {
            "question": "Who is most likely to win right now?",
            "answer": (
                "Turn on Show live odds in Settings. The game then shows each player's exact "
                "chance to win (Classic) or expected place (Last One Standing), worked out "
                "from every possible roll — not guessed — and updated after every move."
            ),
        },
        {
            "question": "How do I know the dice are fair in an online room?",
            "answer": (
                "Before the game the server publishes a fingerprint (SHA-256) of a secret "
                "seed, and every player's device adds a seed of its own, so nobody alone can "
                "choose the rolls. After the game the secret is revealed in the game record: "
                "Verify this game recomputes every roll in your own browser."
            ),
        },
    ]
