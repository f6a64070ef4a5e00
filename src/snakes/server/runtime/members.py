"""Who is connected to a room, as a value.

A connect or a drop makes a new :class:`Members` from the old one; nothing is changed in
place. A change whose commit fails therefore leaves the room's members as they were,
with no undo to write, exactly as it leaves the room's value.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from snakes.server.rooms.intents import Connect, Drop, Intent
from snakes.server.rooms.work import Caller, Presence


def member(secret_hash: str, odds: bool) -> str:
    """What a connection holds, as kept in a room's members: its seat secret's digest
    ('' for none), with ``|odds`` after it when it shows the live odds."""
    return f"{secret_hash}|odds" if odds else secret_hash


class Members:
    """A room's connections: key (node/connection) -> what it holds (see :func:`member`),
    summed up once as the :class:`Presence` handlers see.

    >>> here = Members().after(Connect("a/1", odds=True), Caller("1", "d1"))
    >>> here.after(Connect("a/2"), Caller("2")).presence
    Presence(secrets=frozenset({'d1'}), viewers=2, spectators=1, odds=True)
    >>> here.after(Drop("a/1"), Caller()).presence == Members().presence
    True
    """

    __slots__ = ("_held", "presence")

    def __init__(self, held: Mapping[str, str] | None = None) -> None:
        self._held: dict[str, str] = dict(held or {})
        self.presence = _presence_of(self._held)

    def after(self, intent: Intent, caller: Caller) -> Members:
        """The members once this intent is applied (itself, for most intents)."""
        if isinstance(intent, Connect):
            return Members({**self._held, intent.key: member(caller.secret_hash, intent.odds)})
        if isinstance(intent, Drop) and intent.key in self._held:
            return Members({k: v for k, v in self._held.items() if k != intent.key})
        return self

    def joined(self, others: Mapping[str, str]) -> Members:
        """These members and others (those of other nodes win for a key in both)."""
        return Members({**self._held, **others}) if others else self

    def __iter__(self) -> Iterator[str]:
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)


def _presence_of(held: Mapping[str, str]) -> Presence:
    digests = [m.partition("|")[0] for m in held.values()]
    secrets = [d for d in digests if d]
    odds = any(m.endswith("|odds") for m in held.values())
    return Presence(frozenset(secrets), len(held), len(held) - len(secrets), odds)
