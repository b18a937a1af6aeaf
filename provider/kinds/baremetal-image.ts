// BaremetalImage: POST bmimages from a volume (asynchronous; the id comes from the task),
// PATCH images/{id} for what can change in place, DELETE (asynchronous), GET for refresh
// (owned.ts). No key identifies an image (names repeat, one volume makes many): one is its
// create's only by evidence (evidence.ts).
import { BaremetalImage as contract } from "../../api/contract/baremetal-image";

import { ownedKind } from "../methods/owned";
import { callPath } from "../methods/describe";
import { baremetalImageExample } from "./baremetal-image.example";

export const BaremetalImage = {
  example: baremetalImageExample,
  ...ownedKind({
    contract,
    noun: "image",
    findHint: (i) =>
      `GET ${callPath(contract, "list", i)} lists the images: look for one named "${String(i.name)}" made from volume ${String(i.volumeId)}`,
    import: {
      nouns: ["bare-metal image", "bare-metal images"],
    },
  }),
};
