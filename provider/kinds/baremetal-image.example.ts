// The docs example of BaremetalImage (docs/resources/baremetal-image.md), in every language from this one model.
import { config, type ExampleProgram, output } from "./program-model";

export const baremetalImageExample: ExampleProgram = {
  doc: "An image for bare metal servers, made from a volume that already exists (its id from the stack's config), booting with UEFI; the stack exports its id and status.",
  declarations: [
    {
      type: "BaremetalImage",
      name: "golden-image",
      args: { name: "golden", volumeId: config("volumeId"), isBaremetal: true, hwFirmwareType: "uefi", tags: { os: "debian" } },
    },
  ],
  outputs: { imageId: output("golden-image", "id"), imageStatus: output("golden-image", "status") },
};
