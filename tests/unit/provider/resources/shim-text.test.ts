// What a dynamic resource registers as its provider: the frozen text of shim.ts, which the
// state stores twice per resource, under the dynamic type the engine's Node host serves. Run in
// a process of its own, as a program runs (the SDK's closure serialization, which the classes
// used before, needs node's own v8 module, which jest replaces).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { subnetShim } from "../../../../provider/resources/shim";
import { REPO_ROOT } from "../../../support/harness";

const SCRIPT = `
const pulumi = require("@pulumi/pulumi");
const registered = [];
pulumi.runtime.setMocks({
  newResource: (a) => (registered.push({ type: a.type, inputs: a.inputs }), { id: a.name + "-id", state: a.inputs }),
  call: () => ({}),
});
const cims = require("./provider");
const subnet = new cims.Subnet("a", { name: "a", cidr: "10.1.0.0/24", networkId: "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01" });
subnet.cidr.apply((cidr) => setImmediate(() => console.log(JSON.stringify({ registered, cidr }))));
`;

test("a Subnet registers the dynamic type with the frozen shim text as its provider, not a serialized closure", async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [require.resolve("ts-node/dist/bin.js"), "--transpile-only", "-e", SCRIPT],
    {
      cwd: REPO_ROOT,
    },
  );
  const { registered, cidr } = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
    registered: Array<{ type: string; inputs: Record<string, unknown> }>;
    cidr: string;
  };
  expect(registered.map((r) => r.type)).toEqual(["pulumi-nodejs:dynamic/cims:Subnet"]);
  const provider = registered[0].inputs.__provider;
  expect(provider).toBe(subnetShim);
  // Stored twice per resource: the whole of what the provider writes per Subnet is budgeted at 1 KB.
  expect(Buffer.byteLength(String(provider))).toBeLessThanOrEqual(64);
  // Its outputs are still the resource's properties.
  expect(cidr).toBe("10.1.0.0/24");
}, 60_000);
