/**
 * `.notarai/config.yaml`, the root configuration (one file, at the top level;
 * no per-directory cascades). zod/mini: it is read on the hook path.
 *
 *   transcripts: warn | strict   # strict: a document edited outside the patch protocol blocks
 *   drift: warning | error       # error: unreconciled governed changes fail the PR check
 *   exclude: [glob, …]           # paths check, the hook and the PR check never judge
 */
import * as z from "zod/mini";

export const ConfigSchema = z.object({
  transcripts: z.optional(z.enum(["warn", "strict"])),
  drift: z.optional(z.enum(["warning", "error"])),
  exclude: z.optional(z.array(z.string())),
});

export const CONFIG_KEYS = ["transcripts", "drift", "exclude"] as const;

export interface NomaConfig {
  transcripts: "warn" | "strict";
  drift: "warning" | "error";
  exclude: string[];
}

export const DEFAULT_CONFIG: Readonly<NomaConfig> = Object.freeze({ transcripts: "warn", drift: "warning", exclude: [] });
