/**
 * The union of the 25 patch op schemas as a value, for the library's `PatchOpSchema` and
 * `noma-reconcile schema patch-op`. Its own module: building it builds every op's schema,
 * which the patch path (one op) never needs (see patch-op-schema.ts).
 */
import { patchOpUnion } from "./patch-op-schema.js";

export const PatchOpSchema = patchOpUnion();
