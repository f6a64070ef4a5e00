"""The room-code guessing budgets (transport/limits.py ``LookupLimiter``), on a hand-moved
clock: per address, per network, and from everyone, which never refuses anyone for
others' misses."""

from __future__ import annotations

import pytest

from snakes.server.rooms.errors import ProtocolError
from snakes.server.transport.limits import QUIET_SECONDS, LookupLimiter, network_key


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _limiter(clock: Clock, per: int = 30, total: int = 600, network: int = 120) -> LookupLimiter:
    return LookupLimiter(per, total, clock, network_per_minute=network)


def _refused(limiter: LookupLimiter, address: str) -> ProtocolError | None:
    try:
        limiter.check(address)
    except ProtocolError as error:
        assert error.code == "rate_limited" and error.retry_after
        return error
    return None


def _guess(limiter: LookupLimiter, address: str, times: int) -> int:
    """Up to ``times`` wrong codes from ``address``, as the doors ask: checked, then
    missed. How many were looked up (not refused)."""
    looked = 0
    for _ in range(times):
        if _refused(limiter, address):
            break
        limiter.miss(address)
        looked += 1
    return looked


def _spend_everyones(limiter: LookupLimiter) -> list[str]:
    """21 addresses, each in a network of its own, 30 wrong codes each in one second."""
    guessers = [f"198.18.{i}.1" for i in range(21)]
    for address in guessers:
        _guess(limiter, address, 30)
    return guessers


def test_others_misses_never_refuse_an_address_that_has_not_missed() -> None:
    clock = Clock()
    limiter = _limiter(clock)
    guessers = _spend_everyones(limiter)
    # Everyone's budget is spent: the guessers are refused...
    assert all(_refused(limiter, address) for address in guessers)
    # ... while a new address looks up real rooms as often as it likes (a lookup that
    # finds a room spends nothing), on every door: GET, join, a spectator's hello.
    for _ in range(100):
        assert _refused(limiter, "203.0.113.5") is None
    # Its neighbour on the guessers' networks too: one address never locks out others.
    assert _refused(limiter, "198.18.0.2") is None


def test_while_everyones_budget_is_spent_an_address_may_miss_once_a_minute() -> None:
    clock = Clock()
    limiter = _limiter(clock, total=2)  # two a minute: it stays spent for minutes
    _spend_everyones(limiter)
    assert _guess(limiter, "203.0.113.5", 5) == 1
    refused = _refused(limiter, "203.0.113.5")
    assert refused is not None and refused.retry_after == QUIET_SECONDS
    assert "yours among them" in refused.message
    clock.now += QUIET_SECONDS - 1
    assert _refused(limiter, "203.0.113.5")
    clock.now += 1
    assert _guess(limiter, "203.0.113.5", 5) == 1  # everyone's budget is still spent
    # Once everyone's budget is back, the address spends it (two), then one a minute.
    clock.now += 3600
    assert _guess(limiter, "203.0.113.5", 40) == 3


def test_an_address_out_of_its_own_budget_is_refused_every_lookup() -> None:
    clock = Clock()
    limiter = _limiter(clock, per=5)
    assert _guess(limiter, "192.0.2.1", 10) == 5
    refused = _refused(limiter, "192.0.2.1")
    assert refused is not None and "your address" in refused.message
    assert refused.retry_after == 12  # a token back every 60 / 5 s
    assert _refused(limiter, "2001:db8::1") is None


@pytest.mark.parametrize(
    ("neighbours", "stranger"),
    [
        ([f"192.0.2.{i}" for i in range(1, 10)], "192.0.3.1"),
        ([f"2001:db8:1:{i:x}::1" for i in range(1, 10)], "2001:db8:2::1"),
    ],
    ids=["ipv4-24", "ipv6-48"],
)
def test_a_network_shares_one_budget(neighbours: list[str], stranger: str) -> None:
    """Many addresses of one IPv4 /24 (IPv6 /48: 65,536 /64s) guess no faster than
    four: the network's 120 a minute, each address's 30."""
    clock = Clock()
    limiter = _limiter(clock)
    assert len({network_key(a) for a in neighbours}) == 1
    looked = [_guess(limiter, address, 30) for address in neighbours]
    assert looked[:4] == [30, 30, 30, 30] and looked[4:] == [0] * 5
    refused = _refused(limiter, neighbours[-1])
    assert refused is not None and "your network" in refused.message
    assert _refused(limiter, stranger) is None
    clock.now += 60
    assert _guess(limiter, neighbours[-1], 30) == 30


def test_one_guessing_address_alone_never_locks_out_its_network() -> None:
    clock = Clock()
    limiter = _limiter(clock)
    for _ in range(10):  # ten minutes of guessing as fast as allowed
        _guess(limiter, "192.0.2.1", 1000)
        clock.now += 60
        assert _refused(limiter, "192.0.2.2") is None


def test_no_limit_set_refuses_nothing() -> None:
    clock = Clock()
    limiter = _limiter(clock, per=0, total=0, network=0)
    assert _guess(limiter, "192.0.2.1", 1000) == 1000
