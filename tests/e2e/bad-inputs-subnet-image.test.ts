// Bad-input catalogue, part 1: Subnet and BaremetalImage.
import { type BadCase, catalogue, withField } from "./bad-inputs";

const s = (field: string, value: string) => withField("subnet", field, value);
const i = (field: string, value: string) => withField("image", field, value);

const cases: BadCase[] = [
  { what: "subnet: empty name", resource: "Subnet", args: s("name", '""'), property: "name", rule: /must not be empty/ },
  { what: "subnet: cidr with host bits", resource: "Subnet", args: s("cidr", '"10.0.0.1/24"'), property: "cidr", rule: /no host bits/ },
  { what: "subnet: cidr prefix /33", resource: "Subnet", args: s("cidr", '"10.0.0.0/33"'), property: "cidr", rule: /CIDR/ },
  { what: "subnet: cidr not a network", resource: "Subnet", args: s("cidr", '"ten.zero"'), property: "cidr", rule: /CIDR/ },
  { what: "subnet: cidr missing", resource: "Subnet", args: `{ name: "s", networkId: "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01" }`, property: "cidr", rule: /is required/ },
  { what: "subnet: networkId not a uuid", resource: "Subnet", args: s("networkId", '"net-1"'), property: "networkId", rule: /UUID \(version 4\)/ },
  { what: "subnet: networkId a uuid v1", resource: "Subnet", args: s("networkId", '"6ba7b810-9dad-11d1-80b4-00c04fd430c8"'), property: "networkId", rule: /version 4/ },
  { what: "subnet: gatewayIp null without connectToNetworkRouter false", resource: "Subnet", args: s("gatewayIp", "null"), property: "connectToNetworkRouter", rule: /false when gatewayIp is null/ },
  { what: "subnet: routerIdToConnect with connectToNetworkRouter false", resource: "Subnet", args: s("connectToNetworkRouter", 'false, routerIdToConnect: "5e2a8f1d-3c4b-4a6e-9d7f-1b2c3d4e5f60"'), property: "routerIdToConnect", rule: /requires connectToNetworkRouter/ },
  { what: "subnet: ipVersion 6 for an IPv4 cidr", resource: "Subnet", args: s("ipVersion", "6"), property: "ipVersion", rule: /must match cidr/ },
  { what: "subnet: ipVersion 5", resource: "Subnet", args: s("ipVersion", "5"), property: "ipVersion", rule: /4 or 6/ },
  { what: "subnet: a DNS server that is not an IP", resource: "Subnet", args: s("dnsNameservers", '["dns.example"]'), property: "dnsNameservers[0]", rule: /IP address/ },
  { what: "subnet: duplicate DNS servers", resource: "Subnet", args: s("dnsNameservers", '["1.1.1.1", "1.1.1.1"]'), property: "dnsNameservers[1]", rule: /duplicates dnsNameservers\[0\]/ },
  { what: "subnet: a host route to a non-network", resource: "Subnet", args: s("hostRoutes", '[{ destination: "10.1.0.1/16", nexthop: "10.0.0.1" }]'), property: "hostRoutes[0].destination", rule: /CIDR/ },
  { what: "subnet: a 256-character tag key", resource: "Subnet", args: s("tags", `{ ${"k".repeat(256)}: "v" }`), property: `tags.${"k".repeat(256)}`, rule: /1 to 255 characters/ },
  { what: "subnet: a 256-character tag value", resource: "Subnet", args: s("tags", `{ k: "${"v".repeat(256)}" }`), property: "tags.k", rule: /at most 255 characters/ },
  { what: "subnet: enableDhcp as a string", resource: "Subnet", args: s("enableDhcp", '"false"'), property: "enableDhcp", rule: /true or false/ },
  { what: "subnet: a misspelled argument", resource: "Subnet", args: s("cidrBlock", '"10.0.0.0/24"'), property: "cidrBlock", rule: /not an argument of this resource/ },
  { what: "subnet: projectId 0", resource: "Subnet", args: s("projectId", "0"), property: "projectId", rule: /positive integer/ },
  { what: "image: name missing", resource: "BaremetalImage", args: `{ volumeId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d" }`, property: "name", rule: /is required/ },
  { what: "image: volumeId not a uuid", resource: "BaremetalImage", args: i("volumeId", '"vol-1"'), property: "volumeId", rule: /UUID/ },
  { what: "image: architecture arm64", resource: "BaremetalImage", args: i("architecture", '"arm64"'), property: "architecture", rule: /one of: aarch64, x86_64/ },
  { what: "image: hwFirmwareType efi", resource: "BaremetalImage", args: i("hwFirmwareType", '"efi"'), property: "hwFirmwareType", rule: /one of: bios, uefi/ },
  { what: "image: hwMachineType i440fx", resource: "BaremetalImage", args: i("hwMachineType", '"i440fx"'), property: "hwMachineType", rule: /one of: pc, q35/ },
  { what: "image: osType macos", resource: "BaremetalImage", args: i("osType", '"macos"'), property: "osType", rule: /one of: linux, windows/ },
  { what: "image: source snapshot", resource: "BaremetalImage", args: i("source", '"snapshot"'), property: "source", rule: /one of: volume/ },
  { what: "image: sshKey maybe", resource: "BaremetalImage", args: i("sshKey", '"maybe"'), property: "sshKey", rule: /one of: allow, deny, required/ },
  { what: "image: isBaremetal as 1", resource: "BaremetalImage", args: i("isBaremetal", "1"), property: "isBaremetal", rule: /true or false/ },
];

catalogue("bad inputs: Subnet, BaremetalImage", cases);
