// Networks, volumes and the regions' list (emulator/routes/networks.ts): what the lookups read,
// as the vendor SDK's models have them (every field they require), scoped by the path.
import { call, NET, useEmulator, VOLUME } from "./api";

useEmulator();

test("a scope's networks, each with the fields the vendor's Network model requires; one by id; another scope's: 404", async () => {
  const list = await call("GET", "/cloud/v1/networks/1/1");
  expect(list.body).toEqual({ count: 1, results: [expect.objectContaining({ id: NET, name: "demo-net" })] });
  const net = (await call("GET", `/cloud/v1/networks/1/1/${NET}`)).body;
  for (const field of [
    "created_at",
    "external",
    "mtu",
    "port_security_enabled",
    "region",
    "region_id",
    "shared",
    "tags",
    "type",
    "updated_at",
  ])
    expect(net).toHaveProperty(field);
  expect(net).toMatchObject({ region: "Luxembourg", subnets: [] });
  expect((await call("GET", `/cloud/v1/networks/2/3/${NET}`)).status).toBe(404);
});

test("a scope's volumes with the fields the vendor's Volume model requires; the regions' list without the seed's own name", async () => {
  const volumes = (await call("GET", "/cloud/v1/volumes/1/1")).body;
  expect(volumes.results.map((v: { id: string }) => v.id)).toContain(VOLUME);
  const golden = (await call("GET", `/cloud/v1/volumes/1/1/${VOLUME}`)).body;
  expect(golden).toMatchObject({
    id: VOLUME,
    name: "golden-root",
    size: 20,
    bootable: true,
    is_root_volume: false,
    region: "Luxembourg",
    tags: [],
  });
  const regions = (await call("GET", "/cloud/v1/regions?limit=1")).body;
  expect(regions).toEqual({ count: 2, results: [expect.objectContaining({ id: 1, display_name: "Luxembourg" })] });
  expect(regions.results[0]).not.toHaveProperty("name");
});
