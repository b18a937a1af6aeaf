// What a kind is to the provider process: its descriptor, its field table and its methods.
// Each file of ../kinds/ exports one, named as the resource; ../kinds/index.ts lists them.
import type { Descriptor } from "./descriptor";
import type { Methods } from "./install";
import type { Table } from "./table";

export interface KindEntry {
  descriptor: Descriptor;
  table: Table;
  methods: Methods;
}
