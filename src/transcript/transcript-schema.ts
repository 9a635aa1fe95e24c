/**
 * The v1.0 transcript record (§5) as zod schemas: for `noma-reconcile schema transcript`, the
 * library's `TranscriptRecordSchema`, and the messages of a record that fails the shape check
 * (verify-transcript.ts checks shapes with isTranscriptRecord first).
 *
 * Built on first use, not when the module loads: building them is code run once, unoptimized,
 * in every one-shot `check` or `patch`, which need them only to describe a bad record.
 */
import * as z from "zod/mini";

function build() {
  const hex64 = z.string().check(z.regex(/^[0-9a-f]{64}$/, "expected 64 lowercase hex characters"));
  const hex8 = z.string().check(z.regex(/^[0-9a-f]{8}$/, "expected 8 lowercase hex characters"));
  const summary = z.enum(["ok", "warn", "error"]);

  const ActorSchema = z.looseObject({
    kind: z.enum(["human", "agent", "tool"]),
    name: z.string(),
    model: z.optional(z.string()),
    version: z.optional(z.string()),
  });

  const DiagnosticSchema = z.looseObject({
    severity: z.enum(["info", "warning", "error"]),
    code: z.string(),
    message: z.string(),
    pos: z.optional(z.looseObject({ line: z.number(), column: z.number() })),
    nodeId: z.optional(z.string()),
    phase: z.optional(z.enum(["pre", "post"])),
  });

  const TranscriptRecordSchema = z.looseObject({
    protocol_version: z.literal("1.0"),
    tool_version: z.string(),
    op_id: z.string().check(z.minLength(1)),
    ts: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/, "expected an ISO 8601 UTC timestamp")),
    actor: ActorSchema,
    doc_uri: z.string(),
    pre_sha256: hex64,
    post_sha256: hex64,
    pre_sha: hex8,
    post_sha: hex8,
    op: z.looseObject({ op: z.string() }),
    patch_result: z.enum(["applied", "rejected", "noop"]),
    pre_validation: summary,
    post_validation: summary,
    reason: z.optional(z.string()),
    parent_op_id: z.optional(z.string()),
    base_sha256: z.optional(hex64),
    diagnostics: z.optional(z.array(DiagnosticSchema)),
    elapsed_ms: z.optional(z.number()),
    prev_entry_sha256: z.optional(hex64),
    signature: z.optional(z.null()),
    entry_sha256: z.optional(hex64),
  });
  return { actor: ActorSchema, diagnostic: DiagnosticSchema, record: TranscriptRecordSchema };
}

let built: ReturnType<typeof build> | undefined;

/** The schemas, built once. */
export function transcriptSchemas(): ReturnType<typeof build> {
  return (built ??= build());
}

export type TranscriptRecord = z.infer<ReturnType<typeof build>["record"]>;
export type Actor = z.infer<ReturnType<typeof build>["actor"]>;
