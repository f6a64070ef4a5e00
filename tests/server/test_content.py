"""How to play and the FAQ come from the board and rule data: swap the board, they change."""

from __future__ import annotations

import json

from snakes import __version__
from snakes.engine import JUNGLE, make_board
from snakes.server.boards import board_named
from snakes.server.content import build_content
from tests.support.server import ServerProcess


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


def test_the_boards_and_content_endpoints_serve_the_shipped_boards(server: ServerProcess) -> None:
    """PRODUCT.md: "How to play and FAQ: generated from the same board and rule data the
    engine uses, so the pages can never disagree with the game"."""
    boards = server.get("/api/boards")
    names = [b["name"] for b in boards]
    assert names[0] == "jungle" and "short" in names
    short = next(b for b in boards if b["name"] == "short")
    assert short["mean_turns"] < next(b for b in boards if b["name"] == "jungle")["mean_turns"]
    content = server.get("/api/content?board=short")
    assert content["board"]["name"] == "short"
    assert content == json.loads(json.dumps(build_content(board_named("short"))))
    status, body = server.request("GET", "/api/content?board=nowhere")
    assert status == 400 and body["error"]["code"] == "invalid_board"
