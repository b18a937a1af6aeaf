// An LbPoolSettings replaced on the same pool (`pulumi up --replace`, for which the engine asks
// the provider no diff and names no old resource; or a rename without an alias): nothing shows
// the new resource that the old one's members are its own, so its check and its create refuse
// them, naming the member and `deleteBeforeReplace`; deleted first, as that option orders, the
// old resource removes its members and the create adds them back. A member the new resource
// adopts by id is left by the old one's delete in the same run.
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { closeAllPools } from "../../../../provider/client/transport";
import { lbPoolSettingsMethods } from "../../../../provider/kinds/lb-pool-settings";
import { forgetRun } from "../../../../provider/methods/run-memory";
type PoolInputs = Parameters<typeof lbPoolSettingsMethods.create>[0];
import { SEED, SEED_FILE } from "../../../support/cims";
import { configureProvider } from "../../../support/provider-config";

const KEY = "unit-pool-replace-key-42";
let emu: RunningEmulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY, seed: SEED_FILE, taskDurationMs: 0 });
  configureProvider(emu.url, { "cims:apiKey": KEY, "cims:projectId": "1", "cims:regionId": "1" });
});
afterEach(async () => {
  await closeAllPools();
  await emu.close();
});

const members = () =>
  (emu.store.get("lbpools", SEED.poolId)?.members ?? []) as Array<{ id: string; address: string; protocol_port: number }>;

test("up --replace, create first: the old resource's member is refused, naming deleteBeforeReplace; deleted first, the create adds it back", async () => {
  const { check, create } = lbPoolSettingsMethods;
  const program = { poolId: SEED.poolId, members: [{ address: "10.0.0.77", protocolPort: 8080 }] };
  const checked = (await check({}, program)).inputs as PoolInputs;
  const old = await create(checked);
  const added = members().find((m) => m.address === "10.0.0.77");
  expect(added).toBeDefined();
  forgetRun(); // the `up --replace` is a later command than the create

  // The replacement's check, as the engine makes it for a new resource: refused, saying how to replace.
  const refused = (await check({}, program)).failures?.map((f) => f.reason).join("; ");
  expect(refused).toContain(`already holds member 10.0.0.77:8080 (id ${added!.id}, made by task `);
  expect(refused).toContain("give that run the resource option `deleteBeforeReplace: true`");

  // Delete first: the old resource removes its member; the replacement's create adds it back.
  await lbPoolSettingsMethods.delete(old.id, { ...checked, ...old.outs } as PoolInputs);
  expect(members().find((m) => m.address === "10.0.0.77")).toBeUndefined();
  const replacement = await create((await check({}, program)).inputs as PoolInputs);
  const again = members().find((m) => m.address === "10.0.0.77");
  expect(again).toBeDefined();
  expect(replacement.outs.declaredMemberIds).toEqual({ "10.0.0.77:8080": again!.id });
});

test("a rename that adopts the old resource's member by id: created first, the old one's delete in the same run leaves it", async () => {
  const { check, create } = lbPoolSettingsMethods;
  const program = { poolId: SEED.poolId, members: [{ address: "10.0.0.78", protocolPort: 8080 }] };
  const checked = (await check({}, program)).inputs as PoolInputs;
  const old = await create(checked);
  const id = members().find((m) => m.address === "10.0.0.78")!.id;
  forgetRun(); // the rename's `up` is a later command than the create
  const renamed = await create((await check({}, { ...program, adoptMembers: [id] })).inputs as PoolInputs);
  await lbPoolSettingsMethods.delete(old.id, { ...checked, ...old.outs } as PoolInputs);
  expect(members().find((m) => m.address === "10.0.0.78")).toMatchObject({ id });
  expect(renamed.outs.declaredMemberIds).toEqual({ "10.0.0.78:8080": id });
});

test("without a diff of the old resource (a rename, no alias), the old one's member is refused at check and at create, nothing written", async () => {
  const { check, create } = lbPoolSettingsMethods;
  const program = { poolId: SEED.poolId, members: [{ address: "10.0.0.77", protocolPort: 8080 }] };
  await create((await check({}, program)).inputs as PoolInputs);
  const before = members();
  const refused = /members\[0\]: pool [0-9a-f-]{36} already holds member 10\.0\.0\.77:8080/;
  expect((await check({}, program)).failures?.map((f) => f.reason).join("; ")).toMatch(refused);
  await expect(create({ ...(await check({}, program)).inputs, poolId: SEED.poolId } as PoolInputs)).rejects.toThrow(refused);
  expect(members()).toEqual(before);
});
