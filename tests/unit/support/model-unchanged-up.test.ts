// The lifecycle model leaves out its preview after an up that changed no resource
// (tests/model/commands.ts): only an up whose summary lists nothing but unchanged resources is
// such an up, so a change of any kind keeps the preview after it.
import { changedNoResource } from "../../model/commands";

const up = (summary: string[]) =>
  [
    "Updating (e2e):",
    "     Type                 Name   Status",
    "",
    "Resources:",
    ...summary.map((l) => `    ${l}`),
    "",
    "Duration: 2s",
    "",
  ].join("\n");

test("an up whose summary is all unchanged changed no resource", () => {
  expect(changedNoResource(up(["7 unchanged"]))).toBe(true);
});

test.each([
  ["a create", ["+ 1 created", "6 unchanged"]],
  ["an update", ["~ 1 updated", "6 unchanged"]],
  ["a replacement", ["+-1 replaced", "6 unchanged"]],
  ["a delete", ["- 1 deleted", "6 unchanged"]],
  ["changes alone", ["+ 2 created"]],
])("an up with %s changed something", (_what, summary) => {
  expect(changedNoResource(up(summary))).toBe(false);
});

test("a failed up's output, with no summary, is not taken for one that changed nothing", () => {
  expect(changedNoResource("Updating (e2e):\n\nerror: update failed\n")).toBe(false);
});
