"""Checks every request body pulumi-cims sent, from emulator request logs, against the vendor
SDK's request parameter types (gcore 0.59.0).

usage: python check_requests.py LOG.jsonl [LOG.jsonl ...]

Each log line is one request as the emulator saw it (`--request-log`): method, path, the
emulator's route, status, user-agent and body. Requests of pulumi-cims (its user-agent) that
carry a body are checked against the SDK type of their call; a call the SDK has no type for
is a failure too. The spec's create path spells the machine type `pc` where the SDK's
literal says `i440` (one value): that body is checked with the SDK's spelling.

Prints a JSON report ({"checked": {type: count}, "failures": [...]}) and exits 1 on a failure.
"""
from __future__ import annotations

import json
import os
import sys

from vendor_types import check_request

# The emulator's route of each call with a body -> the SDK's type for that call (its module
# path), as the contracts name them: tests/support/vendor-sdk.ts passes them in
# CIMS_REQUEST_TYPES ({"POST /cloud/v1/subnets/:project_id/:region_id": "gcore....Params"}).
TYPES = {tuple(k.split(" ", 1)): v for k, v in json.loads(os.environ["CIMS_REQUEST_TYPES"]).items()}

# The spec's spelling of a value the SDK spells otherwise, per type and field.
SPEC_SPELLINGS = {"ImageCreateFromVolumeParams": {"hw_machine_type": {"pc": "i440"}}}


def short(type_path: str) -> str:
    """`gcore.types....SubnetCreateParams` -> `SubnetCreateParams`."""
    return type_path.rsplit(".", 1)[-1]


def as_sdk_spells(type_name: str, body: dict) -> dict:
    out = dict(body)
    for field, spellings in SPEC_SPELLINGS.get(short(type_name), {}).items():
        if out.get(field) in spellings:
            out[field] = spellings[out[field]]
    return out


def path_params(route: str, path: str) -> dict[str, str]:
    """The parameters of a request path by its route: `/pools/:pool_id` and `/pools/3d4e...` -> {"pool_id": "3d4e..."}."""
    names = route.split("?", 1)[0].split("/")
    values = path.split("?", 1)[0].split("/")
    return {n[1:]: v for n, v in zip(names, values) if n.startswith(":")} if len(names) == len(values) else {}


def main(paths: list[str]) -> int:
    checked: dict[str, int] = {}
    failures = []
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for n, line in enumerate(lines, 1):
                request = json.loads(line)
                if not str(request.get("user_agent") or "").startswith("pulumi-cims/") or request.get("body") is None:
                    continue
                key = (request["method"], request["route"])
                type_name = TYPES.get(key)
                where = f"{path}:{n} {request['method']} {request['path']}"
                if type_name is None:
                    failures.append({"request": where, "problems": ["no SDK request type for this call"]})
                    continue
                checked[short(type_name)] = checked.get(short(type_name), 0) + 1
                problems = check_request(type_name, as_sdk_spells(type_name, request["body"]), path_params(request["route"], request["path"]))
                if problems:
                    failures.append({"request": where, "type": short(type_name), "body": request["body"], "problems": problems})
    json.dump({"checked": checked, "failures": failures}, sys.stdout, indent=1)
    print()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
