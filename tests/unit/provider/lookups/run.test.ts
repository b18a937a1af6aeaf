// The lookups in process, on both faces, against an emulator over loopback: what each finds by
// id, by name and by its natural filters; none or several fail naming the filters and the
// candidates (never the key); and the lookups of one kind in a run share one list per scope,
// counted by the emulator's requests.
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import * as cims from "../../../../provider";
import { runLookup } from "../../../../provider/lookups/run";
import { setConfig } from "../../../../provider/methods/context";
import { forgetRun } from "../../../../provider/methods/run-memory";
import { providerPb } from "../../../../provider/proto";
import { providerServer } from "../../../../provider/plugin/server";
import { fromStruct, toStruct } from "../../../../provider/plugin/values";
import { SEED_FILE } from "../../../support/cims";
import { configureProvider } from "../../../support/provider-config";

const KEY = "lookup-test-key-5d1e8a02";
const NET = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01";
const OTHER_NET = "1c8e0d0f-5b60-4e2c-8b68-4d307f2f9b12";
const SUBNETS_ROUTE = "GET /cloud/v1/subnets/:project_id/:region_id 200";

const subnet = (n: number, name: string, network = NET) => ({
  id: `5a0c1e2f-3b4d-4e5f-8a6b-7c8d9e0f1a${String(n).padStart(2, "0")}`,
  name,
  cidr: `10.0.${n}.0/24`,
  network_id: network,
  ip_version: 4,
  enable_dhcp: true,
  gateway_ip: `10.0.${n}.1`,
  dns_nameservers: [],
  host_routes: [],
  project_id: 1,
  region_id: 1,
});

function seed(): Record<string, Array<Record<string, unknown>>> {
  const base = JSON.parse(fs.readFileSync(SEED_FILE, "utf8")) as Record<string, Array<Record<string, unknown>>>;
  return {
    ...base,
    networks: [...base.networks, { id: OTHER_NET, name: "edge-net", project_id: 1, region_id: 1 }],
    subnets: [subnet(1, "app"), subnet(2, "db"), subnet(3, "web"), subnet(4, "web", OTHER_NET)],
  };
}

let emu: RunningEmulator;
const requests = () => emu.metrics.snapshot().requests;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY, seed: seed(), taskDurationMs: 50 });
  forgetRun();
  configureProvider(emu.url, { "cims:apiKey": KEY, "cims:projectId": "1", "cims:regionId": "1" });
  emu.metrics.reset();
});
afterEach(async () => {
  await emu.close();
});

describe("what each lookup finds", () => {
  test("a subnet by name, by network and CIDR, by id: the record's fields as the vendor SDK names them, camelCased", async () => {
    const app = await runLookup("getSubnet", { name: "app" });
    expect(app).toMatchObject({
      id: subnet(1, "app").id,
      name: "app",
      cidr: "10.0.1.0/24",
      networkId: NET,
      ipVersion: 4,
      enableDhcp: true,
    });
    expect(app).toMatchObject({ projectId: 1, regionId: 1, region: "Luxembourg" });
    expect(await runLookup("getSubnet", { name: "web", networkId: OTHER_NET })).toMatchObject({ id: subnet(4, "web").id });
    expect(await runLookup("getSubnet", { cidr: "10.0.2.0/24" })).toMatchObject({ name: "db" });
    expect(await runLookup("getSubnet", { id: subnet(3, "web").id })).toMatchObject({ name: "web", networkId: NET });
  });

  test("a network's subnets (getSubnets), none as an empty list; a network, a volume, a project, a region, a pool and its members, a policy", async () => {
    const onNet = await runLookup("getSubnets", { networkId: NET });
    expect((onNet.subnets as Array<{ name: string }>).map((s) => s.name).sort()).toEqual(["app", "db", "web"]);
    expect(await runLookup("getSubnets", { name: "nope" })).toEqual({ subnets: [] });
    expect(await runLookup("getNetwork", { name: "demo-net" })).toMatchObject({
      id: NET,
      mtu: 1450,
      subnets: expect.arrayContaining([subnet(1, "app").id]),
    });
    expect(await runLookup("getVolume", { name: "golden-root" })).toMatchObject({ size: 20, bootable: true, volumeType: "standard" });
    expect(await runLookup("getProject", { name: "prod" })).toMatchObject({ id: 2, isDefault: false, state: "ACTIVE" });
    expect(await runLookup("getRegion", { name: "Frankfurt" })).toMatchObject({ id: 3, displayName: "Frankfurt" });
    expect(await runLookup("getPool", { name: "web-pool" })).toMatchObject({
      id: "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
      protocol: "HTTP",
    });
    expect(await runLookup("getPoolMembers", { poolName: "web-pool" })).toEqual({
      members: [expect.objectContaining({ id: "7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e", address: "10.0.0.10", protocolPort: 8080 })],
    });
    expect(await runLookup("getSnapshotPolicy", { name: "nightly-snapshots" })).toMatchObject({ id: 101 });
    expect(await runLookup("getSnapshotPolicy", { id: 202, projectId: 2, regionId: 3 })).toMatchObject({ name: "prod-hourly" });
  });

  test("an image by isBaremetal and its OS", async () => {
    await emu.store.loadSeed({
      images: [
        {
          id: "8e9f0a1b-2c3d-4e5f-9a6b-7c8d9e0f1a2b",
          name: "bm-debian",
          is_baremetal: true,
          os_distro: "debian",
          os_version: "12",
          project_id: 1,
          region_id: 1,
        },
        {
          id: "9f0a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c",
          name: "vm-debian",
          is_baremetal: false,
          os_distro: "debian",
          os_version: "12",
          project_id: 1,
          region_id: 1,
        },
      ],
    });
    expect(await runLookup("getImage", { isBaremetal: true, osDistro: "debian" })).toMatchObject({ name: "bm-debian", isBaremetal: true });
    await expect(runLookup("getImage", { osDistro: "debian" })).rejects.toThrow(/found 2 images .* osDistro="debian"/);
  });
});

describe("none or several: the program's error names the filters and the candidates, never the key", () => {
  test("several: each candidate's id and name, and how to choose", async () => {
    const err = await runLookup("getSubnet", { name: "web" }).catch((e: unknown) => e);
    expect(String(err)).toContain('getSubnet found 2 subnets in project 1, region 1 with name="web"');
    expect(String(err)).toContain(`${subnet(3, "web").id} "web"`);
    expect(String(err)).toContain(`${subnet(4, "web").id} "web"`);
    expect(String(err)).toMatch(/Give one of their ids as id, or add another filter \(networkId, cidr\)/);
    expect(err).toMatchObject({ property: "name" });
    expect(String(err)).not.toContain(KEY);
  });

  test("none: the scope's records to choose from", async () => {
    const err = await runLookup("getNetwork", { name: "nope" }).catch((e: unknown) => e);
    expect(String(err)).toContain('getNetwork found no network in project 1, region 1 with name="nope"');
    expect(String(err)).toContain(`${NET} "demo-net"`);
    expect(String(err)).toContain(`${OTHER_NET} "edge-net"`);
    expect(String(err)).not.toContain(KEY);
  });

  test("an argument it does not take, or of the wrong type, is refused naming it, before any request", async () => {
    await expect(runLookup("getSubnet", { networkID: NET })).rejects.toThrow(
      /getSubnet has no argument "networkID": it takes id, name, networkId, cidr/,
    );
    await expect(runLookup("getImage", { isBaremetal: "yes" })).rejects.toThrow(/getImage: isBaremetal must be a boolean/);
    expect(requests()).toEqual({});
  });
});

describe("one list request per kind and scope in a run", () => {
  test("20 getSubnet calls, at once and after, send one list of the scope; another scope its own", async () => {
    const names = ["app", "db", "app", "db"];
    await Promise.all(Array.from({ length: 16 }, (_, i) => runLookup("getSubnet", { name: names[i % 4] })));
    for (let i = 0; i < 4; i++) await runLookup("getSubnets", { networkId: NET });
    expect(requests()[SUBNETS_ROUTE]).toBe(1);
    await runLookup("getSubnets", { projectId: 2, regionId: 3 });
    expect(requests()[SUBNETS_ROUTE]).toBe(2);
  });

  test("the plugin's Invoke: answers and failures, one list for many invokes", async () => {
    type Handler = (call: unknown, done: (err: unknown, reply: unknown) => void) => void;
    const invoke = providerServer(undefined).invoke as Handler;
    const call = (tok: string, args: Record<string, unknown>) => {
      const req = new providerPb.InvokeRequest();
      req.setTok(tok);
      req.setArgs(toStruct(args));
      return new Promise<providerPb.InvokeResponse>((resolve, reject) =>
        invoke({ request: req }, (err, reply) => (err ? reject(err) : resolve(reply as providerPb.InvokeResponse))),
      );
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => call("cims:index:getSubnet", { name: "db" })));
    expect(answers.map((a) => fromStruct(a.getReturn()).cidr)).toEqual(Array(10).fill("10.0.2.0/24"));
    expect(requests()[SUBNETS_ROUTE]).toBe(1);
    const failed = await call("cims:index:getSubnet", { name: "web" });
    expect(failed.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([
      ["name", expect.stringContaining("found 2 subnets")],
    ]);
    await expect(call("cims:index:getNothing", {})).rejects.toThrow(/no function "cims:index:getNothing"/);
    const quoted = await call("cims:index:getNetwork", { name: KEY });
    expect(quoted.getFailuresList()[0].getReason()).toMatch(/getNetwork found no network .* with name=/);
    expect(quoted.getFailuresList()[0].getReason()).not.toContain(KEY);
  });

  test("the default face: cims.getSubnet (a Promise) and cims.getSubnetOutput (an Output) read the stack's cims config, one list", async () => {
    setConfig(() => undefined);
    pulumi.runtime.setAllConfig({ "cims:apiUrl": emu.url, "cims:apiKey": KEY, "cims:projectId": "1", "cims:regionId": "1" }, [
      "cims:apiKey",
    ]);
    const found = await Promise.all(Array.from({ length: 10 }, () => cims.getSubnet({ name: "app" })));
    expect(found.map((s) => s.id)).toEqual(Array(10).fill(subnet(1, "app").id));
    const output = cims.getSubnetOutput({ name: pulumi.output("db"), networkId: pulumi.output(NET) });
    const cidr = await new Promise((resolve) => output.apply((s) => resolve(s.cidr)));
    expect(cidr).toBe("10.0.2.0/24");
    expect(requests()[SUBNETS_ROUTE]).toBe(1);
    await expect(cims.getNetwork({ name: "nope" })).rejects.toThrow(/getNetwork found no network/);
    // The program's error is a RunError: the SDK reports its message alone, and its stack is that
    // line, no frames (Node 20's printer, which the SDK's run still applies to every uncaught
    // error, takes seconds to minutes on the SDK's own source-mapped frames: a getXOutput failure
    // spun the preview until cancelled, and an up took 50 s to report it).
    const failure = await cims.getNetwork({ name: "nope" }).catch((e: unknown) => e);
    expect(pulumi.RunError.isInstance(failure)).toBe(true);
    expect((failure as Error).stack).toBe(`Error: ${(failure as Error).message}`);
    // A filter that quotes the key (pasted into the wrong argument): the message never shows it.
    const quoted = await cims.getNetwork({ name: KEY }).catch((e: unknown) => String(e));
    expect(quoted).toMatch(/getNetwork found no network .* with name=/);
    expect(quoted).not.toContain(KEY);
  });
});
