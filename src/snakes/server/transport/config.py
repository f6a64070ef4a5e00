"""GET /api/config: the constants the page shares with the server, from one source.

The languages are the catalogues that ship (web/static/i18n/*.json), each by its code,
its own name and its writing direction: the page picks one and fetches only that file.

The countdown's default and range come from the server's settings (``--countdown``,
``--countdown-min``, ``--countdown-max``); seat limits, colours and the finish modes'
names from the rooms and the engine; the pacing of AI seats (the time a move is given
to be shown, ``--animation-scale``, and ``--ai-delay``) from the settings, so that a
game at your own table, which runs in the page, waits as a server room does. The page
reads them once when it starts (and keeps them for offline play) and never writes them
out itself.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel

from snakes.engine import FINISH, MAX_SEATS, Finish
from snakes.server.languages import shipped_languages
from snakes.server.rooms.model import COLOURS
from snakes.server.rooms.reactions import REACTIONS
from snakes.server.settings import JUMP_SECONDS, MOVE_SECONDS, SQUARE_SECONDS, Settings

MIN_TABLE = 2
"""Every game in a room has 2-6 seats (the engine's one-seat race is for analysis)."""

FINISH_NAMES: dict[Finish, str] = {
    Finish.CLASSIC: "Classic",
    Finish.LAST_ONE_STANDING: "Last One Standing",
}
COLOUR_LABELS = {colour: colour.capitalize() for colour in COLOURS}

router = APIRouter()


class CountdownRange(BaseModel):
    default: int
    min: int
    max: int


class SeatLimits(BaseModel):
    min: int
    max: int
    ai_min: int
    ai_max: int


class ColourOut(BaseModel):
    id: str
    label: str


class FinishOut(BaseModel):
    id: str
    name: str


class LanguageOut(BaseModel):
    code: str
    name: str
    dir: str


class Pacing(BaseModel):
    """When an AI seat rolls, as a server room times it: ``ai_delay_seconds`` after the
    last move had ``scale * (move_seconds + square_seconds * squares hopped +
    jump_seconds * ladders and snakes)`` to be shown (``Settings.move_allowance``)."""

    move_seconds: float
    square_seconds: float
    jump_seconds: float
    scale: float
    ai_delay_seconds: float


class GameConfig(BaseModel):
    countdown: CountdownRange
    seats: SeatLimits
    colours: list[ColourOut]
    finishes: list[FinishOut]
    finish_square: int
    reactions: list[str]
    """The reactions a seated player may send in an online room, by id, in tray order."""
    languages: list[LanguageOut]
    pacing: Pacing


def game_config(settings: Settings) -> GameConfig:
    return GameConfig(
        countdown=CountdownRange(
            default=settings.countdown_default,
            min=settings.countdown_min,
            max=settings.countdown_max,
        ),
        seats=SeatLimits(min=MIN_TABLE, max=MAX_SEATS, ai_min=1, ai_max=MAX_SEATS - 1),
        colours=[ColourOut(id=c, label=COLOUR_LABELS[c]) for c in COLOURS],
        finishes=[FinishOut(id=f.value, name=FINISH_NAMES[f]) for f in Finish],
        finish_square=FINISH,
        reactions=list(REACTIONS),
        languages=[LanguageOut(code=x.code, name=x.name, dir=x.dir) for x in shipped_languages()],
        pacing=Pacing(
            move_seconds=MOVE_SECONDS,
            square_seconds=SQUARE_SECONDS,
            jump_seconds=JUMP_SECONDS,
            scale=settings.animation_scale,
            ai_delay_seconds=settings.ai_delay,
        ),
    )


@router.get("/api/config")
async def get_config(request: Request) -> GameConfig:
    """The countdown's default and range, seat limits, colours, finish names, reactions,
    languages, and the pacing of AI seats."""
    settings: Settings = request.app.state.settings
    return game_config(settings)
