// The provider reads the records the service really returns and sends what the service's own
// SDK would, under the real engine against the emulator, whose records are the
// vendor SDK's shapes (tests/conformance):
// - image tags come from `tags_v2`; `pc` and `i440` are one machine type (no diff, no replace
//   whichever the program says and whichever the service answers);
// - a health monitor's fields the service fills (max_retries_down, http_method, url_path,
//   expected_codes, http_version, domain_name) and members' fields the program did not set
//   (admin_state_up, backup, provisioning_status) never show as a diff;
// - fields a record gains that the provider does not know change nothing;
// each across create, `preview --expect-no-changes`, `refresh --expect-no-changes`, a change
// of every kind, and no diff after. Then every request body this stack's provider sent is
// checked against the SDK's request types (tests/conformance/check_requests.py).
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { api, type CimsTestEnv, requestLogFile, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { runVendorScript } from "../../support/vendor-sdk";

const VOLUME_2 = "2b3c4d5e-6f70-4a81-9b92-a3b4c5d6e7f8";

interface Shape {
  subnetName: string;
  subnetTags: string;
  enableDhcp: boolean;
  imageName: string;
  imageTags: string;
  machine: string;
  machine2: string;
  monitor: string;
  members: string;
  policyStatus: string;
  threshold: number;
}

const program = (s: Shape) => `
import * as cims from "pulumi-cims";
new cims.Subnet("s", {
  name: "${s.subnetName}", cidr: "10.150.0.0/24", networkId: "${SEED.networkId}", enableDhcp: ${s.enableDhcp},
  dnsNameservers: ["8.8.8.8"], hostRoutes: [{ destination: "10.151.0.0/24", nexthop: "10.150.0.254" }], tags: ${s.subnetTags},
});
new cims.BaremetalImage("img", {
  name: "${s.imageName}", volumeId: "${SEED.volumeId}", hwMachineType: "${s.machine}", hwFirmwareType: "uefi", tags: ${s.imageTags},
});
new cims.BaremetalImage("img2", { name: "img2", volumeId: "${VOLUME_2}", hwMachineType: "${s.machine2}" });
new cims.LbPoolSettings("pool", {
  poolId: "${SEED.poolId}", members: ${s.members}, healthmonitor: ${s.monitor},
  sessionPersistence: { type: "APP_COOKIE", cookieName: "sid" }, timeoutClientData: 30000,
});
new cims.SnapshotPolicyState("policy", { policyId: ${SEED.policyId}, name: "nightly-2", status: "${s.policyStatus}" });
new cims.QuotaThreshold("quota", {
  clientId: ${SEED.clientId}, threshold: ${s.threshold}, lastSending: "2026-05-23T07:07:31+02:00",
  lastMessage: { globalQuotas: { keypairCountLimit: { limit: 100, usage: 12 } }, regionalQuotas: [] },
});
`;

const first: Shape = {
  subnetName: "s",
  subnetTags: '{ env: "dev" }',
  enableDhcp: true,
  imageName: "img",
  imageTags: '{ env: "dev", team: "a" }',
  machine: "pc",
  machine2: "i440",
  monitor: '{ type: "HTTP", delay: 10, timeout: 5, maxRetries: 3 }',
  members: '[{ address: "10.0.0.10", protocolPort: 8080 }, { address: "10.0.0.12", protocolPort: 8080 }]',
  policyStatus: "paused",
  threshold: 85,
};

const stacks = useStacks();

const write = (e: CimsTestEnv, s: Shape) => fs.writeFile(`${e.stack.projectDir}/index.ts`, program(s));

test(
  "vendor-shaped records: no diff after create, refresh or a change; pc is i440; service-filled fields are not diffs; requests are the SDK's",
  async () => {
    const requestLog = requestLogFile() ?? path.join(os.tmpdir(), `pulumi-cims-dialect-${process.pid}.jsonl`);
    const env = await stacks.stack({
      files: { "Pulumi.yaml": "name: dialect\nruntime: nodejs\n", "index.ts": program(first) },
      emulator: { requestLog },
    });
    const volume = { id: VOLUME_2, name: "second-root", size: 10, status: "available", project_id: 1, region_id: 1 };
    expect((await api(env, "POST", "/__emulator/seed", { volumes: [volume] })).status).toBe(204);
    const { store } = env.emulator;

    await env.stack.up();
    const [img, img2] = ["img", "img2"].map((name) => store.list("images").find((i) => i.name === name)!);
    expect(img.hw_machine_type).toBe("i440"); // the service's spelling of the program's pc
    expect(img.tags_v2).toEqual(expect.arrayContaining([{ key: "team", value: "a", read_only: false }]));
    expect(img2.hw_machine_type).toBe("i440");
    const pool = store.get("lbpools", SEED.poolId)!;
    expect(pool.healthmonitor).toMatchObject({ max_retries_down: 3, http_method: "GET", url_path: "/", http_version: "1.0" });
    await env.stack.preview(["--expect-no-changes"]);
    await env.stack.refresh(["--expect-no-changes"]);

    // Fields the provider does not know, on every kind of record: nothing to refresh or change.
    for (const [kind, id] of [
      ["subnets", store.list("subnets")[0].id],
      ["images", img.id],
      ["lbpools", SEED.poolId],
    ] as const) {
      store.put(kind, { ...store.get(kind, id)!, vendor_added_field: { nested: [1, 2] } });
    }
    await env.stack.refresh(["--expect-no-changes"]);

    // The other spelling of the same machine type, in the program: no change.
    await write(env, { ...first, machine: "i440", machine2: "pc" });
    await env.stack.preview(["--expect-no-changes"]);

    // A change of every kind; then no diff.
    const changed: Shape = {
      subnetName: "s-2",
      subnetTags: '{ env: "prod" }',
      enableDhcp: false,
      imageName: "img-2",
      imageTags: '{ env: "prod" }',
      machine: "q35",
      machine2: "pc",
      monitor: '{ type: "HTTP", delay: 20, timeout: 5, maxRetries: 3, httpMethod: "HEAD", urlPath: "/healthz" }',
      members: '[{ address: "10.0.0.10", protocolPort: 8080, weight: 5 }, { address: "10.0.0.13", protocolPort: 8080 }]',
      policyStatus: "active",
      threshold: 90,
    };
    await write(env, changed);
    const up = await env.stack.up();
    expect(up.stdout).not.toMatch(/replaced|replacing/);
    expect(store.get("images", img.id)).toMatchObject({ name: "img-2", hw_machine_type: "q35", tags_v2: expect.any(Array) });
    expect(store.get("lbpools", SEED.poolId)?.healthmonitor).toMatchObject({ delay: 20, http_method: "HEAD", url_path: "/healthz" });
    await env.stack.preview(["--expect-no-changes"]);
    await env.stack.refresh(["--expect-no-changes"]);

    // Every body this provider sent is the vendor SDK's request type for its call.
    expect(env.emulator.requestLog).toBe(requestLog);
    const checked = await runVendorScript("check_requests.py", [requestLog]);
    expect(checked.stdout.length).toBeGreaterThan(0);
    const report = JSON.parse(checked.stdout) as { checked: Record<string, number>; failures: unknown[] };
    expect(report.failures).toEqual([]);
    expect(Object.keys(report.checked).sort()).toEqual(
      [
        "ImageCreateFromVolumeParams",
        "ImageUpdateParams",
        "MemberCreateParams",
        "MemberUpdateParams",
        "NotificationThresholdUpdateParams",
        "PoolUpdateParams",
        "SnapshotScheduleUpdateParams",
        "SubnetCreateParams",
        "SubnetUpdateParams",
      ].sort(),
    );
    expect(checked.code).toBe(0);
  },
  E2E_TIMEOUT_MS,
);
