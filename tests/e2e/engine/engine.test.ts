// Proves the ground every other e2e test stands on: the pinned CLI runs a Node.js program
// with a dynamic resource of this package from TypeScript (ts-node, Pulumi's default)
// through up/preview/refresh/destroy, and runs the repo's own demo project.
// The packed-tarball variant is in tarball.test.ts (a separate file, so it runs in parallel).
import * as path from "node:path";
import { SEED, useStacks } from "../../support/cims";
import { expectEchoLifecycle } from "../support/echo-lifecycle";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../../support/harness";

const fixture = path.join(REPO_ROOT, "tests/fixtures/echo-program");

describe("pulumi CLI + dynamic provider", () => {
  const stacks = useStacks();

  test(
    "a TypeScript program run by ts-node deploys and destroys an Echo",
    async () => {
      const stack = await stacks.bare({ programDir: fixture });
      await expectEchoLifecycle(stack, "hello from ts-node");
    },
    E2E_TIMEOUT_MS,
  );

  test(
    "the repo's demo project (Pulumi.yaml at the root) runs its example program, not the library",
    async () => {
      const env = await stacks.stack({
        projectDir: REPO_ROOT,
        stackName: "e2e-root-project",
        config: {
          networkId: SEED.networkId,
          volumeId: SEED.volumeId,
          poolId: SEED.poolId,
          policyId: SEED.policyId,
          clientId: SEED.clientId,
        },
      });
      await env.stack.up();
      expect(await env.stack.outputs()).toMatchObject({ policyStatus: "paused", quotaThreshold: 75 });
      // No destroy: it runs no program, so it proves nothing of which one the project runs; the
      // same program's destroy, and what it leaves in the service, is quickstart.test.ts's.
    },
    E2E_TIMEOUT_MS,
  );
});
