"""What the code says the protocol is, found by reading the source (``ast``), not by importing it.

Reading the source keeps the scan robust while modules move: every refusal class with a
``code`` (``server/rooms/errors.py``, the engine's and the analysis'), and any module
under ``src/snakes`` that makes one by its code (``refusal("code", ...)``), is found.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "snakes"
_JSON_TYPE = re.compile(r'"type"\s*:\s*"(\w+)"')


@dataclass
class Protocol:
    client: dict[str, set[str]] = field(default_factory=dict)
    """Client message type -> its fields (``ref`` left out: every message has it)."""
    server_side: dict[str, set[str] | None] = field(default_factory=dict)
    """Every ``type`` the server sends, messages and events -> fields (None: unknown)."""
    engine_events: dict[str, set[str]] = field(default_factory=dict)
    error_codes: dict[str, set[str]] = field(default_factory=dict)
    """Error code -> where it is raised (``module:line``)."""
    close_codes: dict[str, int] = field(default_factory=dict)
    http_status: dict[str, int] = field(default_factory=dict)


def _modules(root: Path) -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(), str(path))) for path in sorted(root.rglob("*.py"))]


def _where(root: Path, path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(root.parent)}:{getattr(node, 'lineno', 0)}"


def _str(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _literal_type(annotation: ast.expr | None) -> str | None:
    """``"x"`` from an annotation ``Literal["x"]``."""
    if isinstance(annotation, ast.Subscript) and getattr(annotation.value, "id", "") == "Literal":
        return _str(annotation.slice)
    return None


def _class_fields(node: ast.ClassDef) -> dict[str, ast.AnnAssign]:
    return {
        item.target.id: item
        for item in node.body
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
    }


def _error_code_of(node: ast.ClassDef) -> str | None:
    for item in node.body:
        if isinstance(item, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "code" for t in item.targets
        ):
            return _str(item.value)
    return None


def _dict_items(node: ast.Dict) -> dict[str, ast.expr]:
    return {
        key: value
        for k, value in zip(node.keys, node.values, strict=True)
        if (key := _str(k)) is not None
    }


def _players_intents(module: ast.Module) -> set[str]:
    """The class names in ``PLAYERS_INTENTS = (...)``: the intents a client sends."""
    for node in module.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "PLAYERS_INTENTS" for t in node.targets)
            and isinstance(node.value, ast.Tuple)
        ):
            return {e.id for e in node.value.elts if isinstance(e, ast.Name)}
    return set()


CLIENT_MODULES = ("server/transport/protocol.py", "server/rooms/intents.py")
"""Where the types a client's message is read into are defined."""
ERROR_MODULES = ("engine/", "analysis/", "server/rooms/errors.py")
"""Where refusals are classes with a ``code``."""


def scan(root: Path = SRC) -> Protocol:
    found = Protocol()
    for path, module in _modules(root):
        relative = path.relative_to(root).as_posix()
        players = _players_intents(module) if relative == CLIENT_MODULES[1] else set()
        for node in ast.walk(module):
            if isinstance(node, ast.ClassDef):
                fields = _class_fields(node)
                kind = _str(fields["kind"].value) if "kind" in fields else None
                from_client = relative == CLIENT_MODULES[0] or node.name in players
                if kind is not None and from_client:
                    found.client[kind] = set(fields) - {"kind", "__pydantic_config__"}
                if relative == "engine/events.py" and "kind" in fields:
                    event = _str(fields["kind"].value)
                    if event is not None and event != "event":
                        found.engine_events[event] = set(fields) - {"kind"}
                code = _error_code_of(node) if relative.startswith(ERROR_MODULES) else None
                if code is not None:
                    found.error_codes.setdefault(code, set()).add(_where(root, path, node))
            elif isinstance(node, ast.Call):
                name = _call_name(node)
                code = _str(node.args[0]) if node.args else None
                if name in ("ProtocolError", "refusal") and code is not None:
                    found.error_codes.setdefault(code, set()).add(_where(root, path, node))
                status = next((k.value for k in node.keywords if k.arg == "status_code"), None)
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Dict) and isinstance(status, ast.Constant):
                        code = _str(_dict_items(inner).get("code"))
                        if code is not None:
                            found.error_codes.setdefault(code, set()).add(_where(root, path, inner))
                            found.http_status[code] = int(status.value)
            elif isinstance(node, ast.Dict) and relative.startswith("server/"):
                items = _dict_items(node)
                kind = _str(items.get("type"))
                if kind is not None and "." in kind:
                    pass  # an ASGI message ("http.response.start"), not one of ours
                elif kind is not None:
                    found.server_side[kind] = set(items) - {"type"}
                elif (code := _str(items.get("code"))) is not None and "message" in items:
                    found.error_codes.setdefault(code, set()).add(_where(root, path, node))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if relative.startswith("server/") and node.value.lstrip().startswith("{"):
                    for kind in _JSON_TYPE.findall(node.value):
                        found.server_side.setdefault(kind, None)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if not isinstance(target, ast.Name):
                    continue
                value = node.value.value if isinstance(node.value, ast.Constant) else None
                in_ws = relative == "server/transport/gamesocket.py"
                if in_ws and target.id.startswith("CLOSE_") and isinstance(value, int):
                    found.close_codes[target.id] = value
                if target.id == "_STATUS" and isinstance(node.value, ast.Dict):
                    for code, status in _dict_items(node.value).items():
                        if isinstance(status, ast.Constant) and isinstance(status.value, int):
                            found.http_status[code] = status.value
    for event, fields in found.engine_events.items():
        found.server_side[event] = fields
    return found


# ---- what PROTOCOL.md says -------------------------------------------------------------


def section(text: str, heading: str) -> str:
    """The text under ``heading`` (a whole heading line), up to the next heading."""
    start = text.index(f"\n{heading}\n") + len(heading) + 2
    rest = text[start:]
    match = re.search(r"^#{1,4} ", rest, re.MULTILINE)
    return rest[: match.start()] if match else rest


def table(text: str) -> list[list[str]]:
    """The body rows of every Markdown table in ``text`` (headers left out), as cells."""
    lines = text.splitlines()
    rows = []
    for index, line in enumerate(lines):
        following = lines[index + 1].strip() if index + 1 < len(lines) else ""
        is_header = re.fullmatch(r"\|[-:| ]+\|", following) is not None
        if not line.startswith("|") or is_header or re.fullmatch(r"\|[-:| ]+\|", line.strip()):
            continue
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def names(cell: str) -> list[str]:
    """The backticked names in a cell: ``"`a` / `b`"`` -> ``["a", "b"]``."""
    return re.findall(r"`([^`]+)`", cell)


def fields_of(cell: str) -> set[str]:
    """The field names a cell lists; a parenthesis explains and is left out."""
    return set(names(re.sub(r"\([^)]*\)", "", cell)))
