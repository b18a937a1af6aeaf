// The records the Terraform states of tests/fixtures/terraform name, as the service holds them:
// seeded on top of examples/emulator-seed.json (its network, volume, web-pool with its public
// member, and policy 101). The gone state's extra subnet and member are not seeded.
import * as fs from "node:fs";
import * as path from "node:path";
import { SEED, SEED_FILE } from "./cims";
import { REPO_ROOT } from "./harness";
import { imageRecord, subnetRecord } from "./records";

export const TF_DIR = path.join(REPO_ROOT, "tests/fixtures/terraform");
export const tfState = (name: "v1" | "v2" | "mixed" | "gone") => path.join(TF_DIR, `${name}.tfstate`);

export const TF = {
  subnetApp: "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  subnetDb: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  subnetOld: "2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f60",
  image: "5b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e",
  imageUploaded: "7f8a9b0c-1d2e-4f3a-9b4c-5d6e7f8a9b0c",
  apiPool: "6c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f",
  memberPublic: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
  memberApp: "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e",
  memberInline: "c3d4e5f6-a7b8-4c9d-8e0f-2a3b4c5d6e7f",
  memberGone: "d4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80",
};

/** The demo seed's pool (web-pool) as the seed file holds it. */
function seedPool(): Record<string, unknown> {
  const seed = JSON.parse(fs.readFileSync(SEED_FILE, "utf8")) as { lbpools: Array<Record<string, unknown>> };
  return seed.lbpools.find((p) => p.id === SEED.poolId)!;
}

const member = (id: string, address: string, port: number, subnet: string | null) => ({
  id,
  address,
  protocol_port: port,
  weight: 1,
  subnet_id: subnet,
  admin_state_up: true,
  backup: false,
  monitor_address: null,
  monitor_port: null,
  operating_status: "ONLINE",
  provisioning_status: "ACTIVE",
});

/** The emulator seed (POST /__emulator/seed) of what the states name and the service still has. */
export const terraformSeed = () => ({
  subnets: [
    subnetRecord({ id: TF.subnetApp, name: "app", tags: { team: "net" } }),
    subnetRecord({
      id: TF.subnetDb,
      name: "db",
      cidr: "10.61.0.0/24",
      gateway_ip: "10.61.0.1",
      dns_nameservers: ["8.8.8.8"],
      has_router: true,
      tags: { team: "db" },
    }),
  ],
  images: [
    imageRecord({ id: TF.image, tags: { team: "img" } }),
    // Uploaded from a URL (a v2 state's image may be), not made from a volume.
    imageRecord({ id: TF.imageUploaded, name: "uploaded", volume_id: null, source: "url" }),
  ],
  // The seed's web-pool, as another pool: its own id, name, members and health monitor.
  lbpools: [
    {
      ...seedPool(),
      id: TF.apiPool,
      name: "api-pool-v2",
      lb_algorithm: "LEAST_CONNECTIONS",
      members: [
        member(TF.memberPublic, "203.0.113.10", 443, null),
        member(TF.memberApp, "10.60.0.11", 8080, TF.subnetApp),
        member(TF.memberInline, "10.61.0.12", 8080, TF.subnetDb),
      ],
      // As the v2 state's `healthmonitor` says it (the service adds its id and statuses).
      healthmonitor: { type: "HTTP", delay: 5, timeout: 3, max_retries: 3, max_retries_down: 3, http_method: "GET", url_path: "/" },
      listeners: [],
    },
  ],
});

/** The seed's pool and member the v1 state names. */
export const V1_POOL = { pool: SEED.poolId, member: SEED.keptMemberId };

/** What the gone state's program adopts, as `<Kind> <id>`: every record it names the service still has. */
export const GONE_ADOPTED = [
  `Subnet ${TF.subnetApp}`,
  `Subnet ${TF.subnetDb}`,
  `BaremetalImage ${TF.image}`,
  `LbPoolSettings ${TF.apiPool}`,
  `LbPoolMember ${TF.memberPublic}`,
  `LbPoolMember ${TF.memberApp}`,
  `SnapshotPolicy ${SEED.policyId}`,
];
