import { progress, setLogSink, type Severity } from "../../../../provider/methods/context";

/** Lines the provider logs, with their severity, while `run` runs. */
async function logged(run: () => void): Promise<Array<[string, Severity]>> {
  const lines: Array<[string, Severity]> = [];
  setLogSink((line, severity) => {
    lines.push([line, severity]);
  });
  run();
  await Promise.resolve();
  return lines;
}

const step = { taskId: "3f2c0000-0000-4000-8000-000000000001", previousState: "RUNNING", state: "FINISHED" } as const;

afterEach(() => {
  delete process.env.CIMS_DEBUG;
});

test("a task's state change is a debug line: an up's output keeps what its reader acts on, `--debug` shows the rest", async () => {
  const lines = await logged(() => progress('Subnet "app"')(step as never));
  expect(lines).toEqual([[`cims: Subnet "app": task ${step.taskId} RUNNING -> FINISHED`, "debug"]]);
});

test("CIMS_DEBUG=1 shows task progress at the default level", async () => {
  process.env.CIMS_DEBUG = "1";
  const lines = await logged(() => progress('Subnet "app"')({ ...step, previousState: undefined } as never));
  expect(lines).toEqual([[`cims: Subnet "app": task ${step.taskId} FINISHED`, "info"]]);
});
