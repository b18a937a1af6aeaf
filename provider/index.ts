// The entry point of `pulumi-cims` (`import * as cims from "pulumi-cims"`): what a program
// declares. Each resource's class with its Args and State, the nested types its arguments take,
// and `cims.native`, the same resources through the `pulumi-resource-cims` plugin. A program
// loads only these classes and the serialized shims they hand Pulumi: check, diff and every
// HTTP call live in kinds/ and methods/, which only the provider process loads (a lint rule
// keeps them out of here), so a program starts fast and its state carries no provider code.
// The list is written by `npm run gen` from the kinds (resources/generated/index.ts) so a new
// kind is exported with no edit here. Beside this entry, the package exports
// `pulumi-cims/emulator` (cims-emulator as a library) and `pulumi-cims/testing` (the test-only
// Echo resource); its bins are cims-emulator, cims-import and pulumi-resource-cims.
export * from "./resources/generated/index";
