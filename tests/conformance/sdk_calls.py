"""Drives the vendor's official Python SDK (gcore 0.59.0) against cims-emulator, every call the
emulator serves, with strict response validation: each answer must parse as the SDK's model
(required fields, types, enums), as it would from the real service.

usage: python sdk_calls.py BASE_URL API_KEY

The emulator must hold examples/emulator-seed.json. Prints one JSON object per call to stdout
({"call", "ok", "detail"}: the detail of an answered call is the SDK's type of its answer, by
module path); calls that need an earlier call's result say so when it failed.
"""
from __future__ import annotations

import datetime
import json
import sys
import traceback

from gcore import Gcore

NETWORK = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01"
VOLUME = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
APP_VOLUME = "2b3c4d5e-6f70-4a81-9b2c-3d4e5f6a7b8c"  # in no policy
POOL = "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
POLICY = 101
CLIENT = 1
POLL = {"polling_interval_seconds": 1}


def type_name(result: object) -> str:
    """The SDK's type of an answer, by its module path (a list's: `list[<its items' types>]`)."""
    if isinstance(result, list):
        return f"list[{', '.join(sorted({type_name(r) for r in result}))}]"
    return f"{type(result).__module__}.{type(result).__qualname__}"


def main(base_url: str, api_key: str) -> None:
    client = Gcore(
        api_key=api_key,
        base_url=base_url,
        cloud_project_id=1,
        cloud_region_id=1,
        max_retries=4,
        _strict_response_validation=True,
    )
    got: dict[str, object] = {}

    def call(name: str, fn, *needs: str):
        missing = [n for n in needs if n not in got]
        if missing:
            print(json.dumps({"call": name, "ok": False, "detail": f"not run: {', '.join(missing)} failed"}), flush=True)
            return None
        try:
            result = fn()
            got[name] = result
            detail = type_name(result)
            print(json.dumps({"call": name, "ok": True, "detail": detail}), flush=True)
            return result
        except Exception as e:  # noqa: BLE001 - every failure is reported, with its cause
            cause = f" <- {e.__cause__}" if e.__cause__ else ""
            print(json.dumps({"call": name, "ok": False, "detail": f"{type(e).__name__}: {e}{cause}"}), flush=True)
            traceback.print_exc(file=sys.stderr)
            return None

    cloud = client.cloud
    subnets = cloud.networks.subnets

    # The reads that prove a key (the provider's credential check)
    call("projects.get", lambda: cloud.projects.get())
    call("projects.list", lambda: list(cloud.projects.list(limit=1)))
    call("regions.get", lambda: cloud.regions.get())

    # What the lookups read (getRegion, getNetwork, getVolume, getImage)
    call("regions.list", lambda: list(cloud.regions.list()))
    call("networks.list", lambda: list(cloud.networks.list()))
    call("networks.get", lambda: cloud.networks.get(NETWORK))
    call("volumes.list", lambda: list(cloud.volumes.list()))
    call("volumes.get", lambda: cloud.volumes.get(VOLUME))
    tasks = cloud.tasks

    # Subnets
    created = call(
        "networks.subnets.create",
        lambda: subnets.create(name="sdk-a", cidr="10.201.0.0/24", network_id=NETWORK, tags={"env": "dev"}),
    )
    if created:
        call("tasks.poll", lambda: tasks.poll(created.tasks[0], **POLL))
        call("tasks.get", lambda: tasks.get(created.tasks[0]), "tasks.poll")
    subnet_a = got.get("tasks.poll")
    subnet_a_id = subnet_a.created_resources.subnets[0] if subnet_a else None
    call("networks.subnets.get", lambda: subnets.get(subnet_a_id), "tasks.poll")
    call(
        "networks.subnets.create_and_poll",
        lambda: subnets.create_and_poll(
            name="sdk-b",
            cidr="10.202.0.0/24",
            network_id=NETWORK,
            gateway_ip=None,
            connect_to_network_router=False,
            dns_nameservers=["8.8.8.8"],
            host_routes=[{"destination": "10.210.0.0/24", "nexthop": "10.202.0.254"}],
            **POLL,
        ),
    )
    call("networks.subnets.list", lambda: list(subnets.list(network_id=NETWORK, limit=1)))
    call(
        "networks.subnets.update",
        lambda: subnets.update(subnet_a_id, name="sdk-a2", enable_dhcp=False, tags={"env": "prod", "team": "a"}),
        "tasks.poll",
    )
    b = got.get("networks.subnets.create_and_poll")
    deleted = call("networks.subnets.delete", lambda: subnets.delete(b.id), "networks.subnets.create_and_poll")
    if deleted:
        call("tasks.poll (delete_subnet)", lambda: tasks.poll(deleted.tasks[0], **POLL))
    call("tasks.list", lambda: list(tasks.list(project_id=[1], state=["FINISHED", "ERROR"], limit=2)))

    # Load balancer pools and their health monitor
    pools = cloud.load_balancers.pools
    call("load_balancers.pools.get", lambda: pools.get(POOL))
    call("load_balancers.pools.list", lambda: list(pools.list()))
    updated = call(
        "load_balancers.pools.update",
        lambda: pools.update(
            POOL,
            name="sdk-pool",
            lb_algorithm="LEAST_CONNECTIONS",
            members=[{"address": "10.0.0.10", "protocol_port": 8080}, {"address": "10.0.0.11", "protocol_port": 8080, "weight": 2}],
            session_persistence={"type": "APP_COOKIE", "cookie_name": "sid"},
        ),
    )
    if updated and updated.tasks:
        call("tasks.poll (update_lbpool)", lambda: tasks.poll(updated.tasks[0], **POLL))
    monitor = call(
        "load_balancers.pools.health_monitors.create",
        lambda: pools.health_monitors.create(POOL, type="HTTP", delay=10, api_timeout=5, max_retries=3),
    )
    if monitor:
        call("tasks.poll (create_healthmonitor)", lambda: tasks.poll(monitor.tasks[0], **POLL))
        call("load_balancers.pools.get (with its health monitor and members)", lambda: pools.get(POOL))
    call("load_balancers.pools.health_monitors.delete", lambda: pools.health_monitors.delete(POOL))

    # Pool members one by one (on the subnet made above)
    members = pools.members
    added = call(
        "load_balancers.pools.members.create",
        lambda: members.create(POOL, address="10.201.0.20", protocol_port=8080, subnet_id=subnet_a_id, weight=2, monitor_port=9000),
        "tasks.poll",
    )
    member_id = None
    if added:
        done = call("tasks.poll (create_lbmember)", lambda: tasks.poll(added.tasks[0], **POLL))
        member_id = done.created_resources.members[0] if done else None
    call("load_balancers.pools.members.get", lambda: members.get(member_id, pool_id=POOL), "tasks.poll (create_lbmember)")
    call("load_balancers.pools.members.list", lambda: list(members.list(POOL, limit=1)))
    changed = call(
        "load_balancers.pools.members.update",
        lambda: members.update(member_id, pool_id=POOL, weight=5, admin_state_up=False, monitor_port=None),
        "tasks.poll (create_lbmember)",
    )
    if changed and changed.tasks:
        call("tasks.poll (update_lbmember)", lambda: tasks.poll(changed.tasks[0], **POLL))
    gone = call("load_balancers.pools.members.delete", lambda: members.delete(member_id, pool_id=POOL), "tasks.poll (create_lbmember)")
    if gone:
        call("tasks.poll (delete_lbmember)", lambda: tasks.poll(gone.tasks[0], **POLL))
    # A public member: neither subnet_id nor instance_id (as the vendor's Terraform examples make).
    public = call("load_balancers.pools.members.create (public)", lambda: members.create(POOL, address="203.0.113.20", protocol_port=443), "tasks.poll")
    public_id = None
    if public:
        done = call("tasks.poll (create_lbmember, public)", lambda: tasks.poll(public.tasks[0], **POLL))
        public_id = done.created_resources.members[0] if done else None
    call("load_balancers.pools.members.get (public)", lambda: members.get(public_id, pool_id=POOL), "tasks.poll (create_lbmember, public)")
    call("load_balancers.pools.members.delete (public)", lambda: members.delete(public_id, pool_id=POOL), "tasks.poll (create_lbmember, public)")

    # Images
    images = cloud.instances.images
    made = call(
        "instances.images.create_from_volume",
        lambda: images.create_from_volume(name="sdk-image", volume_id=VOLUME, hw_machine_type="i440", tags={"env": "dev"}),
    )
    image_id = None
    if made:
        done = call("tasks.poll (create_image)", lambda: tasks.poll(made.tasks[0], **POLL))
        image_id = done.created_resources.images[0] if done else None
    call("instances.images.get", lambda: images.get(image_id), "tasks.poll (create_image)")
    call("baremetal.images.list", lambda: list(cloud.baremetal.images.list()), "tasks.poll (create_image)")
    call("instances.images.list", lambda: images.list(), "tasks.poll (create_image)")
    call(
        "instances.images.update",
        lambda: images.update(image_id, name="sdk-image-2", hw_machine_type="q35", tags={"env": None, "os": "debian"}),
        "tasks.poll (create_image)",
    )
    removed = call("instances.images.delete", lambda: images.delete(image_id), "tasks.poll (create_image)")
    if removed:
        call("tasks.poll (delete_image)", lambda: tasks.poll(removed.tasks[0], **POLL))

    # Snapshot lifecycle policies
    schedules = cloud.snapshot_schedules
    call("snapshot_schedules.get", lambda: schedules.get(POLICY))
    call("snapshot_schedules.list", lambda: schedules.list())
    call("snapshot_schedules.update", lambda: schedules.update(POLICY, name="sdk-nightly", status="paused"))
    call("snapshot_schedules.add_volumes", lambda: schedules.add_volumes(POLICY, volume_ids=[APP_VOLUME]))
    call("snapshot_schedules.remove_volumes", lambda: schedules.remove_volumes(POLICY, volume_ids=[APP_VOLUME]), "snapshot_schedules.add_volumes")
    policy = call(
        "snapshot_schedules.create",
        lambda: schedules.create(
            action="volume_snapshot",
            name="sdk-policy",
            status="active",
            schedules=[
                {"type": "cron", "hour": "2", "minute": "30", "max_quantity": 7, "retention_time": {"days": 7}, "timezone": "UTC"},
                {"type": "interval", "hours": 6, "max_quantity": 4, "resource_name_template": "snap {volume_id}"},
            ],
            volume_ids=[VOLUME],
        ),
    )
    call(
        "snapshot_schedules.estimate_max_usage",
        lambda: schedules.estimate_max_usage(
            action="volume_snapshot",
            name="sdk-policy",
            schedules=[{"type": "interval", "hours": 6, "max_quantity": 4}, {"type": "cron", "hour": "2", "max_quantity": 3}],
            volume_ids=[VOLUME],
        ),
    )
    policy_id = policy.id if policy else None
    grown = call(
        "snapshot_schedules.add_schedules",
        lambda: schedules.add_schedules(policy_id, schedules=[{"type": "interval", "days": 1, "max_quantity": 2}]),
        "snapshot_schedules.create",
    )
    first = grown.schedules[0].id if grown else None
    call("snapshot_schedules.remove_schedules", lambda: schedules.remove_schedules(policy_id, schedule_ids=[first]), "snapshot_schedules.add_schedules")
    call("snapshot_schedules.remove_volumes (its own policy)", lambda: schedules.remove_volumes(policy_id, volume_ids=[VOLUME]), "snapshot_schedules.create")
    call("snapshot_schedules.add_volumes (its own policy)", lambda: schedules.add_volumes(policy_id, volume_ids=[VOLUME]), "snapshot_schedules.create")
    call("snapshot_schedules.delete", lambda: schedules.delete(policy_id), "snapshot_schedules.create")

    # Quota notification threshold
    threshold = cloud.quotas.notification_threshold
    call("quotas.notification_threshold.get", lambda: threshold.get(CLIENT))
    call(
        "quotas.notification_threshold.update",
        lambda: threshold.update(
            CLIENT,
            threshold=75,
            last_message={
                "global_quotas": {"keypair_count_limit": {"limit": 100, "usage": 12}},
                "regional_quotas": [{"region_id": 1, "region_name": "Luxembourg", "subnet_count_limit": {"limit": 9223372036854775807, "usage": 2}}],
            },
            last_sending=datetime.datetime(2026, 5, 23, 5, 7, 31),
        ),
    )
    call("quotas.notification_threshold.delete", lambda: threshold.delete(CLIENT))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
