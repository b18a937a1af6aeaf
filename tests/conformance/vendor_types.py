"""The vendor SDK's types (gcore 0.59.0), and a request body checked against them.

The SDK's request parameter types are TypedDicts. pydantic's TypeAdapter checks their
required keys, types and literals, but (a) silently drops keys a TypedDict does not declare,
(b) checks the items of `Iterable[...]` fields only when they are iterated, and (c) does not
know the SDK's wire aliases (a health monitor's `timeout` is `api_timeout` in Python). So a
body is checked in three steps: unknown keys at every depth, then the TypeAdapter on the body
renamed to the Python keys, then every lazy iterable forced.
"""
from __future__ import annotations

import importlib
import typing

import pydantic
import typing_extensions as te
from gcore._utils import PropertyInfo
from pydantic import TypeAdapter


def request_type(type_path: str) -> type:
    """The SDK type at a module path: `gcore.types.cloud.networks.subnet_create_params.SubnetCreateParams`."""
    module, name = type_path.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)

# Path parameters the TypedDicts declare but the SDK never sends in a body.
PATH_ONLY = {"project_id", "region_id", "client_id"}


def _unwrap(t):
    """(wire alias or None, the type without Annotated/Required/NotRequired)."""
    alias = None
    while True:
        origin = typing.get_origin(t)
        if origin is te.Annotated:
            for meta in getattr(t, "__metadata__", ()):
                if isinstance(meta, PropertyInfo) and meta.alias:
                    alias = meta.alias
            t = typing.get_args(t)[0]
        elif origin in (te.Required, te.NotRequired):
            t = typing.get_args(t)[0]
        else:
            return alias, t


def _typeddicts_in(t) -> list[type]:
    found, stack = [], [t]
    while stack:
        x = stack.pop()
        if te.is_typeddict(x):
            found.append(x)
        else:
            stack.extend(typing.get_args(x))
    return found


def _fields(td: type) -> dict[str, tuple[str, object]]:
    """Wire key -> (Python key, bare type)."""
    out = {}
    for key, hint in te.get_type_hints(td, include_extras=True).items():
        alias, bare = _unwrap(hint)
        out[alias or key] = (key, bare)
    return out


def _best(tds: list[type], value: object) -> type:
    if len(tds) == 1 or not isinstance(value, dict):
        return tds[0]
    return max(tds, key=lambda td: len(set(value) & set(_fields(td))))


def unknown_keys(td: type, body: object, path: str = "") -> list[str]:
    if not isinstance(body, dict):
        return []
    fields = _fields(td)
    problems = []
    for key, value in body.items():
        here = f"{path}.{key}" if path else key
        if key not in fields or (not path and key in PATH_ONLY):
            problems.append(f"{here}: not a key of {td.__name__}")
            continue
        tds = _typeddicts_in(fields[key][1])
        if not tds:
            continue
        items = value if isinstance(value, list) else [value]
        for i, item in enumerate(items):
            where = f"{here}[{i}]" if isinstance(value, list) else here
            problems.extend(min((unknown_keys(c, item, where) for c in tds), key=len))
    return problems


def to_python(td: type, body: object) -> object:
    """The body with the SDK's wire aliases renamed to its Python keys."""
    if not isinstance(body, dict):
        return body
    fields = _fields(td)
    out = {}
    for key, value in body.items():
        py, bare = fields.get(key, (key, None))
        tds = _typeddicts_in(bare) if bare is not None else []
        if tds and isinstance(value, list):
            value = [to_python(_best(tds, v), v) for v in value]
        elif tds and isinstance(value, dict):
            value = to_python(_best(tds, value), value)
        out[py] = value
    return out


def _force(value, path=()) -> list[str]:
    problems = []
    if isinstance(value, dict):
        for k, v in value.items():
            problems += _force(v, path + (k,))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            problems += _force(v, path + (i,))
    elif type(value).__name__ == "ValidatorIterator":
        try:
            items = list(value)
        except pydantic.ValidationError as e:
            return [f"{'.'.join(map(str, path + tuple(x['loc'])))}: {x['msg']}" for x in e.errors()]
        for i, v in enumerate(items):
            problems += _force(v, path + (i,))
    return problems


def check_request(type_path: str, body: object, path_params: dict[str, str] | None = None) -> list[str]:
    """What is wrong with this wire body as the SDK type at `type_path` (nothing: []).

    `path_params`: the request path's parameters. The SDK's type declares those it requires
    (a member's `pool_id`); they count as given, though a body that carries them is refused.
    """
    td = request_type(type_path)
    given = {k: v for k, v in (path_params or {}).items() if k in _fields(td) and k not in PATH_ONLY}
    problems = unknown_keys(td, body) + [f"{k}: a path parameter, not a body field" for k in given if isinstance(body, dict) and k in body]
    try:
        whole = {**given, **body} if isinstance(body, dict) else body
        problems += _force(TypeAdapter(td).validate_python(to_python(td, whole)))
    except pydantic.ValidationError as e:
        problems += [f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors()]
    return problems
