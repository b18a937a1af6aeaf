// Found while building the lifecycle model: two BaremetalImages made from one
// volume in one program. The service locks the source volume while an image of it is being
// made, so the second POST is answered 409 "Volume <id> is locked by running task <id>". The
// service did not act on it (no task, no image), yet the client retried a POST only after
// 429, 503 or a refused connection, so `pulumi up` failed. Now a POST refused for a lock
// waits for it and is repeated, as every other call is (provider/client/retry.ts).
import { SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

test(
  "two images from one volume in one up: both are created, one after the other's lock",
  async () => {
    const program = [
      'const cims = require("pulumi-cims");',
      `for (const name of ["golden", "silver"]) new cims.BaremetalImage(name, { name, volumeId: "${SEED.volumeId}" });`,
    ].join("\n");
    const env = await stacks.stack({
      taskDurationMs: 2000,
      files: { "Pulumi.yaml": "name: two-images\nruntime: nodejs\n", "index.js": program },
    });
    const up = await env.stack.up([], { allowFailure: true });
    expect({ code: up.code, output: up.code === 0 ? "" : up.stdout }).toEqual({ code: 0, output: "" });
    const names = env.emulator.store
      .list("images")
      .map((i) => String(i.name))
      .sort();
    expect(names).toEqual(["golden", "silver"]);
  },
  E2E_TIMEOUT_MS,
);
