/**
 * The capability descriptor of Annex A (`<doc>.capabilities.yml`), as a zod
 * schema: the source for validation and for `noma-reconcile schema capability`.
 * Unknown fields are tolerated (additions are minor changes, §A.5).
 */
import * as z from "zod/mini";
import { OP_NAMES } from "../patch/patch-op-schema.js";

/**
 * The schemas, built on first use. A one-shot `patch` loads this module with the patch engine
 * but reads a sidecar only when the document has one: building zod schemas at load cost every
 * patch a few milliseconds of start-up (docs/perf/patch.md, issue 38).
 */
function buildSchemas() {
  const AttrPolicySchema = z.looseObject({
    type: z.optional(z.enum(["string", "number", "boolean"])),
    min: z.optional(z.number()),
    max: z.optional(z.number()),
    enum: z.optional(z.array(z.union([z.string(), z.number()]))),
  });
  const BlockPolicySchema = z.looseObject({
    ops: z.optional(z.array(z.enum(OP_NAMES as [string, ...string[]]))),
    attrs: z.optional(z.record(z.string(), AttrPolicySchema)),
  });
  const CapabilityDescriptorSchema = z.looseObject({
    nomaAgent: z.looseObject({
      version: z.number().check(z.int()),
      profile: z.optional(z.string()),
      blocks: z.optional(z.record(z.string(), BlockPolicySchema)),
      ids: z.optional(z.looseObject({ rename: z.optional(z.boolean()) })),
      validation: z.optional(z.looseObject({ required: z.optional(z.boolean()) })),
    }),
  });
  return { AttrPolicySchema, BlockPolicySchema, CapabilityDescriptorSchema };
}

type CapabilitySchemas = ReturnType<typeof buildSchemas>;
let schemas: CapabilitySchemas | undefined;

/** The capability descriptor's schema and its parts (built once, on first use). */
export function capabilitySchemas(): CapabilitySchemas {
  schemas ??= buildSchemas();
  return schemas;
}

export type CapabilityDescriptor = z.infer<CapabilitySchemas["CapabilityDescriptorSchema"]>;

/** The descriptor version this implementation understands. */
export const CAPABILITY_VERSION = 1;
