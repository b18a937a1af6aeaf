# What `npm run bench` deploys in `python` mode: the `plugin` mode's `bench:count` Subnets
# (bench/program/index.ts), written in Python with the pulumi_cims SDK: the same plugin, the
# same requests, so the difference is the language's runtime.
import pulumi
import pulumi_cims as cims

config = pulumi.Config("bench")
count = config.require_int("count")
network_id = config.require("networkId")

ids = [
    cims.Subnet(
        f"s{i}",
        name=f"bench-{i}",
        # 10.<100+i/256>.<i%256>.0/24, as the TypeScript program: a distinct /24 per subnet.
        cidr=f"10.{100 + i // 256}.{i % 256}.0/24",
        network_id=network_id,
    ).id
    for i in range(count)
]
pulumi.export("ids", ids)
