"""The wire names of the fields of the vendor SDK's request types and response models.

argv[1]: a JSON list of type paths (`gcore.types.cloud.subnet.Subnet`). Prints
{"<type path>": ["<wire name>", ...]}: a request type's keys (its TypedDict's, by wire alias)
and the objects inside them as `<key>.<inner key>` (a pool's `members.instance_id`); a
response model's fields by wire alias, top level only (a record's parts are the record's).
"""
from __future__ import annotations

import json
import sys

import pydantic
import typing_extensions as te

from vendor_types import PATH_ONLY, _fields, _typeddicts_in, request_type


def request_keys(td: type, prefix: str = "") -> list[str]:
    out = []
    for wire, (_key, bare) in _fields(td).items():
        if not prefix and wire in PATH_ONLY:
            continue
        out.append(prefix + wire)
        for inner in _typeddicts_in(bare):
            out.extend(k for k in request_keys(inner, f"{prefix}{wire}.") if k not in out)
    return out


def model_keys(model: type) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]


def keys(type_path: str) -> list[str]:
    t = request_type(type_path)
    if te.is_typeddict(t):
        return request_keys(t)
    if isinstance(t, type) and issubclass(t, pydantic.BaseModel):
        return model_keys(t)
    raise SystemExit(f"{type_path}: neither a TypedDict nor a pydantic model")


if __name__ == "__main__":
    print(json.dumps({path: keys(path) for path in json.loads(sys.argv[1])}))
