// The plugin's import read (`pulumi import`, the `import` option): an id the service does not
// hold fails naming the kind, the id, the scope it looked in and what to check; a record's
// null with a word for it is read as that word.
import { importRead } from "../../../../provider/plugin/import";
import { withEmulatedState } from "../faults/matrix";
import { api } from "../../../support/cims";
import { subnetRecord } from "../../../support/records";

const GHOST = "7d4e5f6a-7b8c-4d9e-9f0a-2b3c4d5e6f70";

test("an import of an id the service does not hold fails naming it and the scope it looked in", () =>
  withEmulatedState("Subnet", "native", async () => {
    await expect(importRead("Subnet", `1/1/${GHOST}`)).rejects.toThrow(
      `cims:index:Subnet: no record ${GHOST} in project 1, region 1 to import`,
    );
  }));

// A gateway-less subnet: the inputs `pulumi import` writes its program from say "disable", the
// word every language can write (YAML, Python and Go drop a null, and an omitted gatewayIp asks
// for the gateway the service allocates); its state holds null, as a create's does.
test('an import of a subnet without gateway gives gatewayIp "disable" as its input, null in its state', () =>
  withEmulatedState("Subnet", "native", async (env) => {
    const seeded = await api(env, "POST", "/__emulator/seed", { subnets: [subnetRecord({ id: GHOST, gateway_ip: null })] });
    expect(seeded.status).toBe(204);
    const imported = await importRead("Subnet", `1/1/${GHOST}`);
    expect(imported.inputs).toMatchObject({ gatewayIp: "disable", connectToNetworkRouter: false });
    expect(imported.properties).toMatchObject({ gatewayIp: null, connectToNetworkRouter: false });
  }));
