// The plugin's import read (`pulumi import`, the `import` option) of an id the service does
// not hold: it fails naming the kind, the id, the scope it looked in and what to check.
import { importRead } from "../../../../provider/plugin/import";
import { withEmulatedState } from "../faults/matrix";

const GHOST = "7d4e5f6a-7b8c-4d9e-9f0a-2b3c4d5e6f70";

test("an import of an id the service does not hold fails naming it and the scope it looked in", () =>
  withEmulatedState("Subnet", "native", async () => {
    await expect(importRead("Subnet", `1/1/${GHOST}`)).rejects.toThrow(
      `cims:index:Subnet: no record ${GHOST} in project 1, region 1 to import`,
    );
  }));
