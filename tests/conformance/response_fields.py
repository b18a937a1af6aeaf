"""Whether the vendor SDK's response models require fields: required, and never None.

argv[1]: a JSON list of [model path, field] pairs. Prints {"<model path>.<field>": true|false}.
"""
from __future__ import annotations

import json
import sys
import types
import typing

from vendor_types import request_type


def always(model: type, field: str) -> bool:
    info = model.model_fields.get(field)
    if info is None:
        return False
    t = info.annotation
    nullable = typing.get_origin(t) in (typing.Union, types.UnionType) and type(None) in typing.get_args(t)
    return info.is_required() and not nullable


if __name__ == "__main__":
    pairs = json.loads(sys.argv[1])
    print(json.dumps({f"{model}.{field}": always(request_type(model), field) for model, field in pairs}))
