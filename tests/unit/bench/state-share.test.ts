// A resource's share of `pulumi stack export`, as the faces rounds measure it: compact JSON of
// the entry, of its inputs and outputs, of the `__provider` texts among them and of the engine's
// stackTrace; and the rows that judge what the provider writes against 1 KB.
import { facesRunMarkdown } from "../../../bench/report";
import { stateShare } from "../../../bench/stack-runs";

const text = "exports.handler=()=>({configure(q){}})";
const resource = {
  urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/cims:Subnet::a",
  type: "pulumi-nodejs:dynamic/cims:Subnet",
  inputs: { __provider: text, cidr: "10.0.0.0/24" },
  outputs: { __provider: text, cidr: "10.0.0.0/24", totalIps: "254" },
  stackTrace: [{ sourcePosition: "project:///index.ts#3,1" }, {}],
};

test("a resource's share counts its entry, its inputs and outputs, both provider texts and its stack trace", () => {
  const compact = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
  expect(stateShare(resource)).toEqual({
    resource: compact(resource),
    inputsOutputs: compact(resource.inputs) + compact(resource.outputs),
    provider: 2 * compact(text),
    stackTrace: compact(resource.stackTrace),
  });
  // The plugin face's resources hold no provider text; a resource the engine sent no trace, none.
  expect(stateShare({ type: "cims:index:Subnet", inputs: { cidr: "x" }, outputs: {} })).toMatchObject({ provider: 0, stackTrace: 0 });
});

test("the faces' table judges each face's Subnet by what the provider writes, and shows the floor for contrast", () => {
  const times = { cims: [1000], plugin: [1000], floor: [1000] };
  const share = (inputsOutputs: number) => ({ resource: 2000, inputsOutputs, provider: 0, stackTrace: 400 });
  const lines = facesRunMarkdown({
    previewMs: times,
    upMs: times,
    providerBytesMax: 119,
    previewRatio: 1,
    upRatio: 1,
    pluginUpRatio: 1,
    share: { cims: share(1132), plugin: share(862), floor: share(4180) },
  });
  const row = (start: string) => lines.find((l) => l.startsWith(`| ${start}`));
  expect(row("a Subnet, dynamic face")).toMatch(/\| 1132 B, 0 B; 400 B; 2000 B \| .* \| \*\*not met\*\* \|$/);
  expect(row("a Subnet, plugin face")).toMatch(/\| 862 B, 0 B; 400 B; 2000 B \| .* \| met \|$/);
  expect(row("the floor resource")).toMatch(/\| contrast \| {2}\|$/);
});
