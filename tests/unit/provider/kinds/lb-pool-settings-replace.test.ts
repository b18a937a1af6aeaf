// An LbPoolSettings replaced with the create first (`pulumi up --replace` sends no diff, so the
// engine creates the replacement before it deletes the old one; a renamed resource without an
// alias does the same): the replacement's create takes on the pool's members it lists, and the
// old resource's delete, run after it in the same provider process, must leave them.
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

  // The replacement: a create of the same program (it takes on the member), then the old one's delete.
  const replacement = await create((await check({}, program)).inputs as PoolInputs);
  await lbPoolSettingsMethods.delete(old.id, { ...checked, ...old.outs } as PoolInputs);
  expect(members().find((m) => m.address === "10.0.0.77")).toMatchObject({ id: added!.id });

  // Its own delete later removes it, by id, and nothing else.
  const others = members().filter((m) => m.address !== "10.0.0.77");
  await lbPoolSettingsMethods.delete(replacement.id, { ...checked, ...replacement.outs } as PoolInputs);
  expect(members()).toEqual(others);
});
