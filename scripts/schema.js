// Writes schema.json: the plugin's package schema (provider/plugin/schema.ts), from the built
// package. `npm run schema`; tests/unit/plugin-schema.test.ts fails while it is stale.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const { packageSchema } = require(path.join(root, "dist/provider/plugin/schema"));
const { version } = require(path.join(root, "package.json"));
fs.writeFileSync(path.join(root, "schema.json"), `${JSON.stringify(packageSchema(version), null, 2)}\n`);
