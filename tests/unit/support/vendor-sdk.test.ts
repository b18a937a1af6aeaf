// The conformance suite's venv setup: without a usable python3 it fails at once, saying what to
// install (it never skips the suite).
import { vendorPython } from "../../support/vendor-sdk";

const saved = process.env.PYTHON;
afterEach(() => {
  if (saved === undefined) delete process.env.PYTHON;
  else process.env.PYTHON = saved;
});

test("no python3: a clear failure naming what to install", async () => {
  process.env.PYTHON = "/nonexistent/python3";
  await expect(vendorPython()).rejects.toThrow(
    /need Python 3\.9 or newer with its venv module and pip .* install python3 \(on Debian\/Ubuntu also python3-venv\)/,
  );
});
