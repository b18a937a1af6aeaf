// Lint for every TypeScript and JavaScript file (`npm run lint`, part of `npm test`).
// Formatting is Prettier's (`npm run format`); this config holds no style rules.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/** provider/ and emulator/ share the contract in api/ and never import each other. */
const boundary = (from, forbidden) => ({
  files: [`${from}/**/*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: forbidden.map((dir) => ({
          regex: `(^|/)${dir}(/|$)`,
          message: `${from}/ must not import ${dir}/: both sides import the contract in api/, never each other (the layers stay apart, so each tests the other).`,
        })),
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "bench/out/", ".pulumi*/", "tests/fixtures/upgrade/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    // `const { __provider: _p, ...rest } = inputs` is how a key is left out of a copy.
    rules: { "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }] },
  },
  {
    files: [
      "provider/resources/shim.ts",
      "provider/testing/echo.ts",
      "provider/resources/install.ts",
      "provider/client/transport.ts",
      "provider/version.ts",
      "provider/proto.ts",
      "provider/plugin/server.ts",
      "provider/resources/lookup.ts",
    ],
    // These load modules at call time on purpose: the serialized shims require the package by
    // name in the provider process (a function's closure cannot hold our modules), install.ts
    // loads the test-only Echo's methods when a stack holds one, transport.ts loads undici on the first request (preview never sends one),
    // version.ts reads the package's version from package.json, plugin/server.ts its schema.json
    // (by name, so the plugin tarball's bundle holds the same file), proto.ts loads
    // grpc-js and google-protobuf from @pulumi/pulumi's location (its stubs check instanceof),
    // and resources/lookup.ts loads the lookups' code at a program's first lookup.
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node, ...globals.jest } },
    // Plain CommonJS files (jest config and hooks, scripts): require is how they load modules.
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["tests/support/cims.ts"],
    // api() hands tests the emulator's JSON answers to read field by field, at any depth.
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  boundary("provider", ["emulator"]),
  {
    // What a user's program loads (the resource classes) stays free of the provider
    // process's code and dependencies; only install.ts, the frozen door, reaches kinds/ and methods/.
    files: ["provider/index.ts", "provider/resources/**/*.ts"],
    ignores: ["provider/resources/install.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex:
                "(^|/)(methods|kinds|client)(/|$)|^(zod|undici|ipaddr\\.js|lossless-json)$|api/(net|formats|rules|json|members|schema)$",
              message:
                "a program's resource classes must not load the provider process's code: put it in provider/methods/ or provider/kinds/.",
            },
          ],
        },
      ],
    },
  },
  boundary("emulator", ["provider"]),
  boundary("api", ["provider", "emulator"]),
  {
    // Shipped code (and the generator that writes what ships) reads one screen at a time: a
    // longer function is split into named steps. Generated code, tests and benchmarks are not
    // held to it.
    files: ["api/**/*.ts", "provider/**/*.ts", "emulator/**/*.ts", "scripts/**/*.ts"],
    ignores: ["api/generated/**", "provider/resources/generated/**", "emulator/generated/**"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
