"""How to play and the FAQ, built from the board and rule data the engine plays.

Every number here comes from the board or the rules, so the pages can never disagree
with the game: swap the board and they change. The words around the numbers are the
language catalogue's (snakes.server.languages), so each language gets the same figures.
"""

from __future__ import annotations

from typing import Any

from snakes import __version__
from snakes.engine import FINISH, JUNGLE, MAX_SEATS, MAX_SIXES, Board, Jump
from snakes.server.languages import DEFAULT, Catalogue, catalogue


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


_HOWTO = ("mode", "rules", "roll", "ladders", "snakes", "sixes", "exact", "start", "share", "house")
_FAQ = ("more", "third", "snakeSix", "past", "share", "last", "house", "start", "away")


def build_content(board: Board = JUNGLE, lang: str = DEFAULT) -> dict[str, Any]:
    """The How to play and FAQ pages as data, in ``lang``; the browser shows them as text.

    The words are the language's catalogue (``howto.*`` and ``faq.*``); every number is
    the board's or the rules', filled in here, with Babel's plurals, ordinals and lists.
    """
    words = catalogue(lang)
    x = _examples(board)
    title = _board_title(words, board.name)
    values: dict[str, Any] = {
        **x,
        "finish": FINISH,
        "max_ai": MAX_SEATS - 1,
        "max_seats": MAX_SEATS,
        "max_sixes": MAX_SIXES,
        "places": words.text(
            "rules.places", first=words.ordinal(1), second=words.ordinal(2), third=words.ordinal(3)
        ),
        "first": words.ordinal(1),
        "cruel_where": words.text("howto.shortOf", count=FINISH - x["cruel_from"]),
        "ladders": words.text("count.ladders", count=x["ladders"]),
        "snakes": words.text("count.snakes", count=x["snakes"]),
        "board": title,
    }
    howto: list[dict[str, Any]] = [
        {
            "title": words.text(f"howto.{key}.title", **values),
            "paragraphs": [words.text(f"howto.{key}.text", **values)],
        }
        for key in _HOWTO
    ]
    howto.append(
        {
            "title": words.text("howto.board.title", **values),
            "paragraphs": [words.text("howto.board.text", **values)],
            "ladders": [[j.start, j.end] for j in board.ladders],
            "snakes": [[j.start, j.end] for j in board.snakes],
        }
    )
    howto.append(
        {
            "title": words.text("howto.others.title", **values),
            "paragraphs": [words.text("howto.others.text", **values)],
        }
    )
    need = 4
    values |= {"square": FINISH - need, "need": need, "top": board.destination(1)}
    faq = []
    for key in _FAQ:
        answer = f"faq.{key}.a"
        if key == "start" and board.destination(1) != 1:
            answer = "faq.start.aLadder"
        question = words.text(f"faq.{key}.q", **values)
        faq.append({"question": question, "answer": words.text(answer, **values)})
    faq += _extra_faq(words)
    return {
        "version": __version__,
        "lang": lang,
        "board": board.to_data(),
        "howto": howto,
        "faq": faq,
    }


def _board_title(words: Catalogue, name: str) -> str:
    key = f"boards.{name}.title"
    return words.text(key) if key in words.messages else name


def _extra_faq(words: Catalogue) -> list[dict[str, str]]:
    """Boards, odds and fair dice: answers whose figures come from the shipped boards."""
    from snakes.server.boards import board_catalogue  # noqa: PLC0415 - needs numpy, only here

    boards = board_catalogue()
    quickest = min(boards, key=lambda b: b["median_turns"])
    longest = max(boards, key=lambda b: b["median_turns"])
    listed = "; ".join(
        words.text(
            "faq.shorter.item",
            board=_board_title(words, b["name"]),
            low=b["p10_turns"],
            high=b["p90_turns"],
        )
        for b in boards
    )
    shorter = {
        "quickest": _board_title(words, quickest["name"]),
        "longest": _board_title(words, longest["name"]),
        "median": quickest["median_turns"],
        "count": quickest["median_turns"],
        "listed": listed,
    }
    return [
        {"question": words.text("faq.shorter.q"), "answer": words.text("faq.shorter.a", **shorter)},
        {"question": words.text("faq.odds.q"), "answer": words.text("faq.odds.a")},
        {"question": words.text("faq.fair.q"), "answer": words.text("faq.fair.a")},
    ]
