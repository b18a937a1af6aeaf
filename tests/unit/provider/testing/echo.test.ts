// The test-only Echo resource's provider logic, without the engine.
import * as echo from "../../../../provider/testing/echo-methods";

describe("Echo provider", () => {
  test("check rejects a missing message, naming the property", async () => {
    const result = await echo.check({}, {});
    expect(result.failures).toEqual([{ property: "message", reason: "message is required and must be a string" }]);
  });

  test("check passes a message through", async () => {
    const result = await echo.check({}, { message: "hi" });
    expect(result.failures).toBeUndefined();
    expect(result.inputs).toEqual({ message: "hi" });
  });

  test("diff reports a change only when the message differs", async () => {
    expect((await echo.diff("id", { message: "a", length: 1 }, { message: "a" })).changes).toBe(false);
    expect((await echo.diff("id", { message: "a", length: 1 }, { message: "b" })).changes).toBe(true);
  });

  test("create computes the length and a fresh id", async () => {
    const a = await echo.create({ message: "four" });
    const b = await echo.create({ message: "four" });
    expect(a.outs).toEqual({ message: "four", length: 4 });
    expect(a.id).not.toBe(b.id);
  });
});
