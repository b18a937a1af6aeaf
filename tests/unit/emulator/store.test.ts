// The store's state file: a restarted emulator continues from it; one it cannot continue
// from is refused at start (emulator/store/).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "pulumi-cims/emulator";
import { call, createSubnet, KEY, restartEmulator, SEED, useEmulator, waitTask } from "./api";

useEmulator();

describe("persistence", () => {
  test("with a state file, a restarted emulator continues where it stopped, including running tasks", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cims-emu-state-"));
    const stateFile = path.join(dir, "state.json");
    try {
      await restartEmulator({ seed: SEED, stateFile, taskDurationMs: 400 });
      const id = await createSubnet();
      await call("PUT", "/cloud/v2/client_quotas/1/notification_threshold", { threshold: 91 });
      const pending = (await call("DELETE", `/cloud/v1/subnets/1/1/${id}`)).body.tasks[0];

      await restartEmulator({ seed: {}, stateFile, taskDurationMs: 400 });
      expect((await call("GET", "/cloud/v2/client_quotas/1/notification_threshold")).body.threshold).toBe(91);
      expect((await waitTask(pending)).state).toBe("FINISHED");
      expect((await call("GET", `/cloud/v1/subnets/1/1/${id}`)).status).toBe(404);
      expect(fs.readFileSync(stateFile, "utf8")).toContain("9223372036854775807");
      expect(fs.readdirSync(dir)).toEqual(["state.json"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe("a state file the emulator cannot continue from", () => {
    let dir: string;
    let stateFile: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "cims-emu-state-"));
      stateFile = path.join(dir, "state.json");
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    /** Why an emulator on this state file did not start ("started" when it did; it is closed then). */
    const startRefusal = (file: string): Promise<string> =>
      startEmulator({ apiKey: KEY, seed: SEED, stateFile: file }).then(
        async (started) => {
          await started.close();
          return "started";
        },
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );

    test.each([
      // Loaded as it was, this one answered every request for the subnet 404 (its project_id is a string).
      [
        "a record with a wrong field",
        { collections: { subnets: { s1: { id: "s1", project_id: "1", region_id: 1 } } }, tasks: {} },
        "is not this emulator's state: collections.subnets.s1.project_id must be an integer",
      ],
      ["no collections", { records: {}, tasks: {} }, `collections is missing (expected object); has unknown field "records"`],
      ["a task without its bookkeeping", { collections: {}, tasks: { t1: { id: "t1", state: "RUNNING" } } }, "tasks.t1.task_type"],
    ])("a state file with %s is refused at start, naming the file, the field and what to do", async (_what, state, problem) => {
      fs.writeFileSync(stateFile, JSON.stringify(state));
      const refusal = await startRefusal(stateFile);
      expect(refusal).toContain(`state file ${stateFile} `);
      expect(refusal).toContain(problem);
      expect(refusal).toContain("Delete it (or pass another --state-file) to start from the seed");
      expect(JSON.parse(fs.readFileSync(stateFile, "utf8"))).toEqual(state); // refused, not overwritten
    });

    test("a state file that is no JSON (cut short) is refused at start, naming the file", async () => {
      fs.writeFileSync(stateFile, '{"collections": {"subnets": {');
      expect(await startRefusal(stateFile)).toMatch(
        new RegExp(`^state file ${stateFile.replace(/[.\\/]/g, "\\$&")} is not valid JSON: .+\\. Delete it`),
      );
    });
  });
});
