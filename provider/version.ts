// This package's version, read from its package.json at run time (by name, so the compiled
// dist/ and the TypeScript sources under test read the same file): the User-Agent of every
// request and the plugin's GetPluginInfo.
const manifest: unknown = require("pulumi-cims/package.json");
export const VERSION =
  typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string"
    ? manifest.version
    : "unknown";
