// This package's version, read from its package.json at run time (by name, so the compiled
// dist/ and the TypeScript sources under test read the same file): the User-Agent of every
// request and the plugin's GetPluginInfo.
export const VERSION = (require("pulumi-cims/package.json") as { version: string }).version;
