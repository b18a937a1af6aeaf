// An LbPoolSettings replaced with the create first (`pulumi up --replace`: the engine diffs the
// old resource, then creates the replacement before it deletes the old one): the replacement's
// create takes on the members the old one made (its diff said which), and the old resource's
// delete, run after it in the same provider process, must leave them. Without that diff (a
// renamed resource, no alias), nothing shows the members are its own, and they are refused.
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { closeAllPools } from "../../../../provider/client/transport";
import { lbPoolSettingsMethods } from "../../../../provider/kinds/lb-pool-settings";
import { setConfig } from "../../../../provider/methods/context";
type PoolInputs = Parameters<typeof lbPoolSettingsMethods.create>[0];
import { SEED, SEED_FILE } from "../../../support/cims";

const KEY = "unit-pool-replace-key-42";
let emu: RunningEmulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY, seed: SEED_FILE, taskDurationMs: 0 });
  const config: Record<string, string> = { "cims:apiUrl": emu.url, "cims:apiKey": KEY, "cims:projectId": "1", "cims:regionId": "1" };
  setConfig((key) => config[key]);
});
afterEach(async () => {
  await closeAllPools();
  await emu.close();
});

const members = () =>
  (emu.store.get("lbpools", SEED.poolId)?.members ?? []) as Array<{ id: string; address: string; protocol_port: number }>;

test("create first, then delete the replaced resource: the members the replacement lists stay in the pool", async () => {
  const { check, create } = lbPoolSettingsMethods;
  const program = { poolId: SEED.poolId, members: [{ address: "10.0.0.77", protocolPort: 8080 }] };
  const checked = (await check({}, program)).inputs as PoolInputs;
  const old = await create(checked);
  const added = members().find((m) => m.address === "10.0.0.77");
  expect(added).toBeDefined();

  // The replacement, as the engine plays `up --replace`: the old resource's diff, then a check
  // and a create of the same program (it takes on the member), then the old one's delete.
  await lbPoolSettingsMethods.diff(old.id, { ...checked, ...old.outs }, checked);
  const replacement = await create((await check({}, program)).inputs as PoolInputs);
  await lbPoolSettingsMethods.delete(old.id, { ...checked, ...old.outs } as PoolInputs);
  expect(members().find((m) => m.address === "10.0.0.77")).toMatchObject({ id: added!.id });

  // Its own delete later removes it, by id, and nothing else.
  const others = members().filter((m) => m.address !== "10.0.0.77");
  await lbPoolSettingsMethods.delete(replacement.id, { ...checked, ...replacement.outs } as PoolInputs);
  expect(members()).toEqual(others);
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
