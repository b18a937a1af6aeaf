// The whole bad-input catalogue, every kind.
import type { BadCase } from "./catalogue";
import { MEMBER } from "./member";
import { POLICIES } from "./policies";
import { POLICY_QUOTA } from "./policy-quota";
import { POOL } from "./pool";
import { SUBNET_IMAGE } from "./subnet-image";

export const ALL: BadCase[] = [...SUBNET_IMAGE, ...POOL, ...POLICY_QUOTA, ...MEMBER, ...POLICIES];
