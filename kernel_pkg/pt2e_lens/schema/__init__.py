"""The contract's single definition (docs/contract.md): the JSON Schemas and constants in this folder.

Everything else reads them: the snapshot builder and views (SCHEMA_VERSION), the display (MIME_TYPE),
the comm (PROTOCOL_VERSION, COMM_TARGET, request validation), `Snapshot.from_json` (document validation),
and scripts/gen-contract.mjs, which generates the TypeScript types and the docs' field tables.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any


def _read(name: str) -> Any:
    return json.loads(files(__name__).joinpath(name).read_text(encoding="utf-8"))


VIEW_SCHEMA: dict = _read("view.schema.json")
PROTOCOL_SCHEMA: dict = _read("protocol.schema.json")
_CONSTANTS: dict = _read("contract.json")

# the versions a reader opens, oldest first; a writer writes the last (docs/contract.md, "Versions")
SCHEMA_VERSIONS: tuple[int, ...] = tuple(VIEW_SCHEMA["$defs"]["SchemaVersion"]["enum"])
SCHEMA_VERSION: int = SCHEMA_VERSIONS[-1]
PROTOCOL_VERSION: int = PROTOCOL_SCHEMA["$defs"]["ProtocolVersion"]["const"]
MIME_TYPE: str = _CONSTANTS["mime_type"]
COMM_TARGET: str = _CONSTANTS["comm_target"]
# what an opened document may hold (schema/bounds.py; the front end reads the same numbers)
LIMITS: dict[str, int] = {k: v for k, v in _CONSTANTS["limits"].items() if not k.startswith("$")}
SNAPSHOT_FORMAT: str = VIEW_SCHEMA["$defs"]["Snapshot"]["properties"]["format"]["const"]
VIEW_FORMAT: str = VIEW_SCHEMA["$defs"]["View"]["properties"]["format"]["const"]
# the closed sets code branches on: which rule made a finding, which analysis made a table, which backend ran
FINDING_KINDS: frozenset[str] = frozenset(VIEW_SCHEMA["$defs"]["FindingKind"]["enum"])
TABLE_NAMES: frozenset[str] = frozenset(VIEW_SCHEMA["$defs"]["TableName"]["enum"])
BACKEND_NAMES: frozenset[str] = frozenset(VIEW_SCHEMA["$defs"]["BackendName"]["enum"])


def _request_definitions() -> dict[str, str]:
    out = {}
    for ref in PROTOCOL_SCHEMA["$defs"]["Request"]["oneOf"]:
        definition = ref["$ref"].rsplit("/", 1)[1]
        out[PROTOCOL_SCHEMA["$defs"][definition]["properties"]["type"]["const"]] = definition
    return out


# the comm's allow-list: request type → its definition in protocol.schema.json (`get_stage` → `GetStageRequest`)
REQUESTS: dict[str, str] = _request_definitions()
