// The Echo lifecycle every engine test runs: up, no-op preview and refresh, in-place update,
// destroy; with checks on outputs and on the serialized provider stored in state.
import { REPO_ROOT, TestStack } from "../../support/harness";

export async function expectEchoLifecycle(stack: TestStack, message: string): Promise<void> {
  await stack.setConfig("message", message);
  await stack.up();
  const outputs = await stack.outputs();
  expect(outputs.message).toBe(message);
  expect(outputs.length).toBe(message.length);
  expect(outputs.echoId).toMatch(/^[0-9a-f-]{36}$/);

  // The serialized provider loads the implementation by package name: no absolute path
  // (state moves between laptops and CI), no captured module code.
  const echoState = (await stack.exportState()).deployment.resources?.find((r) => r.type === "pulumi-nodejs:dynamic/cims:Echo");
  const shim = String(echoState?.inputs?.__provider);
  // Echo is test-only: it enters through its own door, not the production registry.
  expect(shim).toContain('require("pulumi-cims/testing/install").install(this, req)');
  expect(Buffer.byteLength(shim)).toBeLessThanOrEqual(1024);
  expect(shim).not.toContain(REPO_ROOT);
  expect(shim).not.toContain(stack.root);

  // A second preview sees nothing to do; refresh keeps the resource.
  await stack.preview(["--expect-no-changes"]);
  await stack.refresh(["--expect-no-changes"]);

  // An in-place update keeps the id.
  await stack.setConfig("message", `${message}!`);
  await stack.up();
  const updated = await stack.outputs();
  expect(updated.length).toBe(message.length + 1);
  expect(updated.echoId).toBe(outputs.echoId);

  await stack.destroy();
  const state = await stack.exportState();
  expect(state.deployment.resources ?? []).toHaveLength(0);
}
