// Links node_modules/pulumi-cims to this checkout, and its bin (cims-emulator) into
// node_modules/.bin so `npx cims-emulator` runs this checkout's build (npm "prepare" hook).
// Why: serialized dynamic providers require("pulumi-cims/...") at call time, resolved from
// the program's directory upward, exactly as in a user's project. The demo and the e2e
// programs run from this repo, so the package must be in its own node_modules. (A
// "file:." self-dependency does the same but makes `npm ci` reject the lock file.)
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const modules = path.join(root, "node_modules");
const link = path.join(modules, "pulumi-cims");

if (fs.existsSync(modules) && path.basename(path.dirname(root)) !== "node_modules") {
  let current = null;
  try {
    current = fs.readlinkSync(link);
  } catch {
    // Missing, or not a link.
  }
  if (current !== "..") {
    fs.rmSync(link, { recursive: true, force: true });
    fs.symlinkSync("..", link, "dir");
  }
  const pkg = require(path.join(root, "package.json"));
  fs.mkdirSync(path.join(modules, ".bin"), { recursive: true });
  for (const [name, target] of Object.entries(pkg.bin ?? {})) {
    const binLink = path.join(modules, ".bin", name);
    fs.rmSync(binLink, { force: true });
    fs.symlinkSync(path.join("..", "pulumi-cims", target), binLink);
  }
}
