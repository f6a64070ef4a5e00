"""How to play and the FAQ come from the board and rule data: swap the board, they change."""

from __future__ import annotations

from snakes import __version__
from snakes.engine import JUNGLE, make_board
from snakes.server.content import build_content


def _text(content: dict[str, object]) -> str:
    howto = content["howto"]
    faq = content["faq"]
    assert isinstance(howto, list) and isinstance(faq, list)
    parts = [p for section in howto for p in section["paragraphs"]]
    parts += [f"{q['question']} {q['answer']}" for q in faq]
    return "\n".join(parts)


def test_the_jungle_pages_quote_the_jungle_board() -> None:
    text = _text(build_content(JUNGLE))
    assert "from 28 all the way to 84" in text
    assert "The 87 snake drops you back to 24" in text
    assert "waits on 99 — one short of the finish — to send you down to 27" in text
    assert "these 9 ladders and 10 snakes" in text


def test_another_board_changes_every_example() -> None:
    board = make_board("other", ladders=[(3, 60), (10, 20)], snakes=[(97, 5), (50, 40)])
    text = _text(build_content(board))
    assert "from 3 all the way to 60" in text
    assert "The 50 snake drops you back to 40" in text
    assert "waits on 97 — 3 short of the finish — to send you down to 5" in text
    assert "28" not in text.split("Eight races in ten")[0]


def test_the_pages_name_the_game_version_they_were_built_from() -> None:
    assert build_content(JUNGLE)["version"] == __version__


def test_the_faq_answers_the_questions_players_ask() -> None:
    questions = " ".join(q["question"] for q in build_content(JUNGLE)["faq"])
    for topic in ("more than I need", "third six", "snake", "past 100", "share a square",
                  "Last One Standing end", "house rules", "shorter game", "fair"):  # fmt: skip
        assert topic in questions, topic
