// The docs example of BaremetalImage (docs/resources/baremetal-image.md), in every language from this one model.
import { type ExampleProgram, lookup, output } from "./program-model";

export const baremetalImageExample: ExampleProgram = {
  doc: "An image for bare metal servers, made from a volume that already exists (found by its name, `golden-root`), booting with UEFI; the stack exports its id and status.",
  declarations: [
    {
      type: "BaremetalImage",
      name: "golden-image",
      args: {
        name: "golden",
        volumeId: lookup("getVolume", { name: "golden-root" }, "id"),
        isBaremetal: true,
        hwFirmwareType: "uefi",
        tags: { os: "debian" },
      },
    },
  ],
  outputs: { imageId: output("golden-image", "id"), imageStatus: output("golden-image", "status") },
};
