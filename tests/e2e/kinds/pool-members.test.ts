// `pulumi import` of an LbPoolSettings, then destroy: the import never takes the member another
// stack's member create made, records the one it writes as adopted (by id), and the destroy
// leaves every member: the adopted one, the other stack's, and one added since. The pool shared by two stacks (an unrelated update keeps the other stack's members,
// a weight in place, only diffed fields written, exclusive ownership, a destroy under another
// stack's pool lock) runs in process on both faces:
// tests/unit/provider/kinds/lb-pool-settings-shared-pool.test.ts; under the real engine,
// tests/e2e/kinds/pool-shared.test.ts and the lifecycle model's shared pool.
import { api, type CimsTestEnv, PLUGIN_PROJECT, SEED, useStacks } from "../../support/cims";
import { addMemberOutside } from "../../support/faults";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

const POOL_PATH = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
type PoolMember = { id: string; address: string; weight: number };
const members = async (env: CimsTestEnv): Promise<PoolMember[]> => (await api(env, "GET", POOL_PATH)).body.members;

test(
  "pulumi import of an LbPoolSettings takes no other stack's member, adopts what it writes, and its destroy leaves every member",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT("pool-import"), "index.ts": "" } });
    const { stack } = env;
    const others = await addMemberOutside(env, "10.0.0.98"); // another stack's member create

    await stack.run([
      "import",
      "cims:index:LbPoolSettings",
      "pool",
      `1/1/${SEED.poolId}`,
      "--yes",
      "--protect=false",
      "--generate-code=false",
      "--stack",
      stack.name,
    ]);
    const state = ((await stack.exportState()).deployment.resources ?? []).find((r) => r.type === "cims:index:LbPoolSettings");
    const theirs = await addMemberOutside(env, "10.0.0.99");
    await stack.refresh();
    await stack.destroy();
    expect((await members(env)).map((m) => m.id).sort()).toEqual([SEED.keptMemberId, others, theirs].sort());
    // What the import recorded: the seeded member, adopted by id, and not the other stack's.
    expect(state?.outputs).toMatchObject({
      declaredMembers: ["10.0.0.10:8080"],
      declaredMemberIds: { "10.0.0.10:8080": SEED.keptMemberId },
      adoptMembers: [SEED.keptMemberId],
    });
    expect(state?.inputs?.members).toEqual([expect.objectContaining({ address: "10.0.0.10" })]);
  },
  E2E_TIMEOUT_MS,
);
