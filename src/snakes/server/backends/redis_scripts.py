"""The Lua scripts a node runs in Redis, and the commit script's arguments as a record.

A script runs whole or not at all, on the one Redis or the primary that serves its keys'
slot (every key a script touches shares the room's hash tag, ``redis_keys``). The
commit script reads its arguments by position: :class:`CommitArgs` holds them by name,
in that order, and is the one place that lays them out.
"""

from __future__ import annotations

from dataclasses import dataclass

# Claim due timers: move each a lease ahead and return it with the score it had; last,
# the earliest score left ('' for none).
CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, 50)
for i = 1, #due, 2 do
    redis.call('ZADD', KEYS[1], ARGV[2], due[i])
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
due[#due + 1] = first[2] or ''
return due
"""

# An update for the room's connections on other nodes: to the inbox of every node but
# this one that holds a connection in the room's presence hash ("node/connection"). The
# message comes whole from the node ("u", the code, a newline, the envelope): Lua
# would copy it once more to put it together.
_PUBLISH = """
local function publish(presence, node, inboxes, message)
    local sent = {}
    for _, key in ipairs(redis.call('HKEYS', presence)) do
        local slash = string.find(key, '/', 1, true)
        if slash then
            local other = string.sub(key, 1, slash - 1)
            if other ~= node and not sent[other] then
                sent[other] = true
                redis.call('PUBLISH', inboxes .. other, message)
            end
        end
    end
end
"""

# On a cluster: the room's own sharded channel (ARGV[9] names it), once, when another node
# has a connection to the room; the nodes that do listen to it there.
_SHARD_PUBLISH = """
local function publish(presence, node, channel, message)
    for _, key in ipairs(redis.call('HKEYS', presence)) do
        local slash = string.find(key, '/', 1, true)
        if slash and string.sub(key, 1, slash - 1) ~= node then
            redis.call('SPUBLISH', channel, message)
            return
        end
    end
end
"""

# KEYS: room, actions, owner, timers, presence, and the intent's outcome key if it has one.
# ARGV: a CommitArgs record, field by field in its order (CommitArgs.argv).
_COMMIT_BODY = """
local node, created = ARGV[1], ARGV[2]
if created == '1' then
    if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
    redis.call('SET', KEYS[3], node)
else
    if redis.call('GET', KEYS[3]) ~= node then return 0 end
    if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[3] then return 0 end
end
-- The intent's outcome, when it has an id (KEYS[6]): 'a', applied. A sender that lost
-- the answer has written 'x' there first if it gave the intent up: then it never applies.
if KEYS[6] and not redis.call('SET', KEYS[6], 'a', 'NX', 'EX', ARGV[13]) then return 2 end
local ttl = tonumber(ARGV[8])
if ARGV[6] == '1' then
    redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[5])
elseif ARGV[5] == '' then
    redis.call('HSET', KEYS[1], 'rev', ARGV[4], 'live', ARGV[11])
else
    redis.call('HSET', KEYS[1], 'rev', ARGV[4], 'data', ARGV[5])
    redis.call('HDEL', KEYS[1], 'live')
    if ARGV[7] == '1' then redis.call('DEL', KEYS[2]) end
end
-- The counted lists, read by position (i: the count of the next one).
local i = 14
local count = tonumber(ARGV[i])
local first, last = i + 1, i + count
local length = 0
while first <= last and ARGV[6] ~= '1' do  -- in slices: unpack has a limit
    local upto = math.min(first + 499, last)
    length = redis.call('RPUSH', KEYS[2], unpack(ARGV, first, upto))
    first = upto + 1
end
i = last + 1
if ARGV[6] ~= '1' and ARGV[12] == '1' then
    for _, key in ipairs({KEYS[1], KEYS[2], KEYS[3], KEYS[5]}) do redis.call('EXPIRE', key, ttl) end
elseif length == count and count > 0 then
    redis.call('EXPIRE', KEYS[2], ttl)  -- the game's log began here (a start, a rematch)
end
count = tonumber(ARGV[i])
for k = 1, count do
    local member, due = ARGV[10] .. '|' .. ARGV[i + 2 * k - 1], ARGV[i + 2 * k]
    if due == '' then redis.call('ZREM', KEYS[4], member)
    else redis.call('ZADD', KEYS[4], due, member) end
end
i = i + 2 * count + 1
count = tonumber(ARGV[i])
for k = 1, count do publish(KEYS[5], node, ARGV[9], ARGV[i + k]) end
i = i + count + 1
if ARGV[i] == '1' then
    local rttl = tonumber(ARGV[i + 5])
    redis.call('SET', ARGV[i + 1], ARGV[i + 2], 'EX', rttl)
    redis.call('SET', ARGV[i + 3], ARGV[i + 4], 'EX', rttl)
end
return 1
"""
COMMIT = _PUBLISH + _COMMIT_BODY
CLUSTER_COMMIT = _SHARD_PUBLISH + _COMMIT_BODY


# KEYS: owner, room, presence. ARGV: node, rev, channel (as the commit's), message. Messages
# that need no write (a welcome) still go out only from the room's owner, at the
# revision it holds.
_SEND_BODY = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[2], 'rev') ~= ARGV[2] then return 0 end
publish(KEYS[3], ARGV[1], ARGV[3], ARGV[4])
return 1
"""
SEND = _PUBLISH + _SEND_BODY
CLUSTER_SEND = _SHARD_PUBLISH + _SEND_BODY


@dataclass(frozen=True, slots=True)
class Record:
    """A finished game's record, kept for ``ttl`` seconds beside the room's latest."""

    key: str
    text: str
    latest_key: str
    game: int
    ttl: int


@dataclass(frozen=True, slots=True)
class CommitArgs:
    """The commit script's ``ARGV``, by name, in the script's order."""

    node: str
    """The node committing: it must own the room (or be creating it)."""
    created: bool
    expected_rev: int
    """The revision the change was made from; the room's must still be this."""
    new_rev: int
    data: str
    """The room's whole row, or '' to keep it (only the live part changes)."""
    delete: bool
    new_game: bool
    """A new game's log starts empty."""
    ttl: int
    """The room's keys' time to live."""
    channel: str
    """Where the change's envelope goes: every node's inbox by this prefix (one Redis),
    or the room's own sharded channel (a cluster)."""
    code: str
    live: str
    """The room's live part, when the row is kept."""
    set_expiry: bool
    """Whether to set the keys' expiry again ('0': it stands, but for a list made anew)."""
    outcome_ttl: int
    """How long an intent's outcome is kept under its id."""
    actions: list[str]
    timers: list[tuple[str, float | None]]
    """Each timer's name and when it is due (None: cleared)."""
    envelope: str | None
    """The change's messages for the other nodes, if it has any."""
    record: Record | None

    def argv(self) -> list[str]:
        flag = {True: "1", False: "0"}
        argv = [
            self.node,
            flag[self.created],
            str(self.expected_rev),
            str(self.new_rev),
            self.data,
            flag[self.delete],
            flag[self.new_game],
            str(self.ttl),
            self.channel,
            self.code,
            self.live,
            flag[self.set_expiry],
            str(self.outcome_ttl),
            str(len(self.actions)),
            *self.actions,
            str(len(self.timers)),
        ]
        for name, due in self.timers:
            argv += [name, "" if due is None else repr(due)]
        argv += ["1", self.envelope] if self.envelope is not None else ["0"]
        if self.record is None:
            argv.append("0")
        else:
            r = self.record
            argv += ["1", r.key, r.text, r.latest_key, str(r.game), str(r.ttl)]
        return argv
