"""What the server writes and its nodes say to each other (``rooms/messages.py``), and the
refusals as types (``rooms/errors.py``): each written message is read back as it was."""

from __future__ import annotations

import pytest

from snakes.engine import Finish, Rules
from snakes.server import jsontext
from snakes.server.rooms import messages
from snakes.server.rooms.errors import (
    BadMessage,
    Busy,
    NotOwning,
    OutcomeUnknown,
    ProtocolError,
    RateLimited,
    StaleVersion,
    UnknownType,
    refusal,
)
from snakes.server.rooms.intents import INTENTS, AddAi, Fire, Resync, Roll, SetRules
from snakes.server.rooms.messages import (
    Caller,
    Forward,
    ForwardAnswer,
    Message,
    RoomUpdate,
    decode_node,
    encode_node,
    intent_args,
    intent_from,
)


def test_every_refusal_is_its_own_type_and_is_made_again_from_its_code() -> None:
    assert len(ProtocolError.REFUSALS) >= 30
    for code, kind in ProtocolError.REFUSALS.items():
        assert kind.code == code
        made = refusal(code, "why", retry_after=2.0)
        assert type(made) is kind
        assert (made.code, made.message, made.retry_after) == (code, "why", 2.0)


def test_a_code_this_node_does_not_know_is_kept_as_it_came() -> None:
    made = refusal("from_a_newer_node", "why")
    assert type(made) is ProtocolError
    assert made.code == "from_a_newer_node"


@pytest.mark.parametrize(
    "intent",
    [
        Roll(2, 41),
        SetRules(7, Rules(Finish.LAST_ONE_STANDING, exact_finish=False), 30, "short"),
        AddAi(3, "Zoë 🐍", "purple"),
        Fire("turn", 1_733_000_000.25),
        Resync(("n1/4", "n2/9")),
    ],
)
def test_an_intent_sent_to_its_owner_arrives_as_it_was_sent(intent: object) -> None:
    sent = Forward("n1.12", "n1", "ABCDEF", intent, Caller("n1/4", "digest", "n1.12", "i9"))  # type: ignore[arg-type]
    assert decode_node(encode_node(sent)) == sent


def test_every_intent_kind_is_read_back_by_its_own_type() -> None:
    assert set(INTENTS) >= {"roll", "rules", "connect", "fire", "resync"}
    for kind, cls in INTENTS.items():
        with pytest.raises(BadMessage, match=f"^{kind}: "):
            intent_from(kind, {"not_a_field": 1})
        assert cls.kind == kind


def test_an_answer_carries_its_refusal_as_its_type_with_its_wait() -> None:
    for refused in (
        StaleVersion("seen"),
        RateLimited("slow down", retry_after=3.5),
        NotOwning("no"),
    ):
        answer = decode_node(encode_node(ForwardAnswer("n2.1", refused=refused)))
        assert isinstance(answer, ForwardAnswer)
        assert type(answer.refused) is type(refused)
        assert answer.refused is not None
        assert (answer.refused.message, answer.refused.retry_after) == (
            refused.message,
            refused.retry_after,
        )
    lost = decode_node(encode_node(ForwardAnswer("n2.2", refused=OutcomeUnknown())))
    assert isinstance(lost, ForwardAnswer) and isinstance(lost.refused, OutcomeUnknown)
    done = decode_node(encode_node(ForwardAnswer("n2.3", {"code": "ABCDEF"})))
    assert done == ForwardAnswer("n2.3", {"code": "ABCDEF"})


def test_a_room_update_reaches_the_other_nodes_whole() -> None:
    sent = RoomUpdate(
        "ABCDEF",
        0,
        ["d0", ""],
        [
            Message('{"type":"update"}'),
            Message('{"type":"welcome"}', to="n2/3"),
            Message("{}", skip="n2/1", presence=True),
        ],
        ["n2.7"],
    )
    text = encode_node(sent)
    assert text.startswith("uABCDEF\n")  # the room is known before the rest is parsed
    assert decode_node(text) == sent


REQUEST = '{"k": "req", "id": "x", "from": "n", "code": "C", "op": %s, "args": %s, "caller": []}'


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ('{"k": "shout"}', BadMessage),
        ("[1, 2]", BadMessage),
        (REQUEST % ('"dance"', "{}"), UnknownType),
        (REQUEST % ('"roll"', '{"seat": "0", "version": 1}'), BadMessage),
    ],
)
def test_what_is_no_node_message_is_refused_by_type(
    text: str, refused: type[ProtocolError]
) -> None:
    with pytest.raises(refused):
        decode_node(text)


def test_an_intent_as_data_is_json_ready() -> None:
    args = intent_args(SetRules(1, Rules(), None, None))
    assert jsontext.loads(jsontext.dumps(args)) == args
    assert args["rules"] == {"finish": "classic", "exact_finish": True, "six_again": True}


def test_what_players_are_sent_is_typed_json() -> None:
    assert jsontext.loads(messages.error(Busy("full", retry_after=1.5), "r1")) == {
        "type": "error",
        "code": "busy",
        "message": "full",
        "ref": "r1",
        "retry_after": 1.5,
    }
    assert jsontext.loads(messages.pong(5, 9)) == {"type": "pong", "t": 5, "server_ms": 9}
    assert jsontext.loads(messages.PONG) == {"type": "pong"}
    assert jsontext.loads(messages.reaction(1, "clap"))["type"] == "reaction"
