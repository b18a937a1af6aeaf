// The plugin-face classes pass the package's version as the `version` resource option, as the
// classes of registry SDKs do: the engine then runs that plugin version and records it on the
// default provider (`default_<version>`) whatever the language host reports (an Automation API
// inline program's reports nothing). A program's own `version` option still wins.
import * as pulumi from "@pulumi/pulumi";
import * as cims from "../../../../provider";
import { VERSION } from "../../../../provider/version";

beforeAll(() => pulumi.runtime.setMocks({ newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: () => ({}) }));

/** The version option the SDK registers the resource with. */
const versionOf = (resource: pulumi.Resource): unknown => Reflect.get(resource, "__version");

test("cims.native classes ask for the plugin at the package's version; a program's version option wins", () => {
  const networkId = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01";
  expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  expect(versionOf(new cims.native.Subnet("n", { name: "n", cidr: "10.2.0.0/24", networkId }))).toBe(VERSION);
  expect(versionOf(new cims.native.QuotaThreshold("q", { clientId: 1, threshold: 80 }))).toBe(VERSION);
  expect(versionOf(new cims.native.QuotaThreshold("p", { clientId: 2, threshold: 80 }, { version: "9.9.9" }))).toBe("9.9.9");
});

test("an explicit cims.native.Provider asks for the same version, so the engine does not add it on a later run (an update)", () => {
  expect(versionOf(new cims.native.Provider("here", { projectId: 1, regionId: 1 }))).toBe(VERSION);
  expect(versionOf(new cims.native.Provider("pinned", {}, { version: "9.9.9" }))).toBe("9.9.9");
});
