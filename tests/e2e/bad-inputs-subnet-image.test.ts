// The bad-input catalogue (tests/e2e/bad-inputs/): Subnet, BaremetalImage, on the dynamic face.
import { catalogue } from "./bad-inputs/catalogue";
import { SUBNET_IMAGE } from "./bad-inputs/subnet-image";

catalogue("bad inputs: Subnet, BaremetalImage", SUBNET_IMAGE);
