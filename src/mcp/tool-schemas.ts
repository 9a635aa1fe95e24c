/**
 * The input and output shapes of every MCP tool, as zod schemas: the single
 * source for argument validation and for the JSON Schemas `tools/list` shows.
 *
 * Inputs are closed objects (unknown arguments are errors). The reconciliation
 * outputs are NotarAI's shapes exactly; the Noma outputs are Annex B's, plus
 * `hash`/`sha256` in read_doc and `transcript_entries` in patch_block.
 *
 * Generating JSON Schema from zod takes tens of milliseconds, so the build
 * does it once (scripts/build.mjs calls `toolJsonSchemas`) and the bundle
 * carries the result; running from source generates them on first use.
 */
import * as z from "zod/mini";
import { OP_SCHEMAS } from "../patch/patch-op-schema.js";
import type { ToolName } from "./tool-catalog.js";

const text = (description: string) => z.string().check(z.minLength(1), z.describe(description));

const specPath = text("Repository-relative path of the spec file, e.g. .notarai/cli.spec.yaml (it must be inside the repository)");
const baseBranch = text('Branch (or any commit-ish) to diff against, e.g. "main" or "origin/main"');
const docFile = text("The .noma file: an absolute path or one relative to the repository root; it must be inside the repository");
const stringList = z.array(z.string());

const behavior = z.looseObject({
  name: z.string(),
  given: z.string(),
  then: z.string(),
  interaction: z.optional(z.looseObject({ trigger: z.string(), sequence: stringList })),
  state_transition: z.optional(z.looseObject({ from: z.string(), to: z.string() })),
});

const diagnostic = z.looseObject({
  severity: z.enum(["info", "warning", "error"]),
  code: z.string(),
  message: z.string(),
  pos: z.optional(z.strictObject({ line: z.number(), column: z.number() })),
  nodeId: z.optional(z.string()),
  phase: z.optional(z.enum(["pre", "post"])),
  endLine: z.optional(z.number()),
});

const summary = z.enum(["ok", "warn", "error"]);

/** A v1.0 transcript record (§5.2, §5.3) as written to `<file>.patches`. */
const transcriptRecord = z.looseObject({
  protocol_version: z.literal("1.0"),
  tool_version: z.string(),
  op_id: z.string(),
  ts: z.string(),
  actor: z.looseObject({ kind: z.enum(["human", "agent", "tool"]), name: z.string() }),
  doc_uri: z.string(),
  pre_sha256: z.string(),
  post_sha256: z.string(),
  pre_sha: z.string(),
  post_sha: z.string(),
  // The op as submitted: an op object, or whatever malformed value was rejected as invalid_content.
  op: z.union([z.looseObject({}), z.string(), z.number(), z.boolean(), z.null()]),
  patch_result: z.enum(["applied", "rejected", "noop"]),
  pre_validation: summary,
  post_validation: summary,
});

const patchOp = z.union(Object.values(OP_SCHEMAS) as unknown as [z.ZodMiniType, z.ZodMiniType, ...z.ZodMiniType[]]).check(
  z.meta({
    id: "PatchOp",
    description:
      "A Noma patch op (§3.1 core ops and §1.5 extended ops), addressing blocks by canonical id. Every op may carry baseHash: a prefix (8+ hex) of the target block's hash from read_doc.",
  }),
);

const actor = z.strictObject({
  kind: z.enum(["human", "agent", "tool"]),
  name: z.string().check(z.minLength(1)),
  model: z.optional(z.string()),
  version: z.optional(z.string()),
});

const patchEnvelope = {
  file: docFile,
  reason: z.optional(z.string().check(z.describe("Why: stored in each transcript record"))),
  expected_sha: z.optional(z.string().check(z.regex(/^[0-9a-fA-F]{8,64}$/, "expected_sha must be 8–64 hex characters"), z.describe("First 8+ hex of the document's sha256 before the patch; the patch is rejected (sha_mismatch) if the document changed"))),
  actor: z.optional(actor.check(z.describe('Who is patching, recorded in the transcript; default {"kind":"agent","name":"unknown"}'))),
  base_sha256: z.optional(z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, "base_sha256 must be 64 hex characters"), z.describe("sha256 of the document as you read it (read_doc's sha256); a difference is recorded as a base_sha_drift warning, not a rejection"))),
  parent_op_id: z.optional(z.string().check(z.minLength(1), z.describe("op_id of a causally prior transcript record"))),
  strict: z.optional(z.boolean().check(z.describe("Reject the patch (pre_validation_blocked) when the document already has validator errors"))),
};

/** patch_block as advertised: the envelope plus `op` or `ops`, typed as the op catalog. */
const patchBlockInput = z.strictObject({
  ...patchEnvelope,
  op: z.optional(patchOp),
  ops: z.optional(z.array(patchOp).check(z.minLength(1), z.describe("An op list, applied atomically (all or nothing); give this or op"))),
});

/** patch_block as validated: ops are left to the patch engine, which rejects a bad op as unsupported_op / invalid_content and records it (§3.1, B.6). */
const patchBlockArgs = z.strictObject({
  ...patchEnvelope,
  op: z.optional(z.unknown()),
  ops: z.optional(z.array(z.unknown()).check(z.minLength(1))),
});

const block = z.strictObject({
  id: z.optional(z.string()),
  type: z.string(),
  name: z.optional(z.string()),
  attrs: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))),
  title: z.optional(z.string()),
  level: z.optional(z.number()),
  aliases: z.optional(stringList),
  childCount: z.number(),
  lines: z.array(z.number()).check(z.length(2), z.describe("[startLine, endLine], 1-based, inclusive")),
  patchable: z.boolean(),
  hash: z.optional(z.string()),
});

export interface ToolSchemas {
  /** Advertised (and, unless `args` is given, validated) input. */
  input: z.ZodMiniType;
  /** Validation schema when it is looser than `input`. */
  args?: z.ZodMiniType;
  output: z.ZodMiniType;
}

export const TOOL_SCHEMAS: Record<ToolName, ToolSchemas> = {
  list_affected_specs: {
    input: z.strictObject({ base_branch: baseBranch }),
    output: z.strictObject({
      changed_files: stringList,
      affected_specs: z.array(z.strictObject({ spec_path: z.string(), behaviors: z.array(behavior), constraints: stringList, invariants: stringList })),
    }),
  },
  get_spec_diff: {
    input: z.strictObject({
      spec_path: specPath,
      base_branch: baseBranch,
      exclude_patterns: z.optional(z.array(z.string()).check(z.describe('Globs to leave out, e.g. ["*.lock"] (a pattern without "/" matches file names at any depth)'))),
      bypass_cache: z.optional(z.boolean().check(z.describe("Diff every changed governed file, reconciled or not (the cache is kept). Default false"))),
    }),
    output: z.strictObject({
      diff: z.string(),
      files: stringList,
      skipped: stringList,
      excluded: stringList,
      spec_changes: z.array(z.strictObject({ path: z.string(), content: z.string() })),
      system_spec: z.nullable(z.strictObject({ path: z.string(), content: z.optional(z.string()) })),
      binary_changes: stringList,
      file_categories: z.record(z.string(), z.string()),
    }),
  },
  get_changed_artifacts: {
    input: z.strictObject({
      spec_path: specPath,
      artifact_type: z.optional(text('Only this artifact category of the spec, e.g. "docs", "code"')),
    }),
    output: z.strictObject({ changed_artifacts: stringList }),
  },
  mark_reconciled: {
    input: z.strictObject({
      files: z.array(z.string().check(z.minLength(1))).check(z.describe("Repository-relative paths of the files reconciled (each must be inside the repository)")),
      spec_path: z.optional(text("Mark for this spec only (default: for every spec that governs each file)")),
    }),
    output: z.strictObject({ updated: z.number() }),
  },
  clear_cache: { input: z.strictObject({}), output: z.strictObject({ cleared: z.boolean() }) },
  snapshot_state: {
    input: z.strictObject({}),
    output: z.strictObject({ state_path: z.string(), files: z.number(), specs: z.number(), git_hash: z.string() }),
  },
  read_doc: {
    input: z.strictObject({ file: docFile }),
    output: z.strictObject({ sha256: z.string(), blocks: z.array(block) }),
  },
  list_ids: {
    input: z.strictObject({ file: docFile }),
    output: z.strictObject({ ids: stringList, aliases: z.record(z.string(), z.string()) }),
  },
  validate_doc: {
    input: z.strictObject({ file: docFile }),
    output: z.strictObject({ ok: z.boolean(), diagnostics: z.array(diagnostic) }),
  },
  patch_block: {
    input: patchBlockInput,
    args: patchBlockArgs,
    output: z.strictObject({
      ok: z.boolean(),
      post_validation: z.optional(summary),
      transcript_entry: z.optional(transcriptRecord),
      diagnostics: z.optional(z.array(diagnostic)),
      error: z.optional(z.string()),
      code: z.optional(z.string()),
      transcript_entries: z.array(transcriptRecord),
    }),
  },
};

export type JsonSchema = Record<string, unknown>;

/**
 * Spell a generated schema the way every client dialect reads it: no `$schema`
 * (draft 2020-12 is MCP's default), no `additionalProperties: {}` (the default
 * anyway), and `anyOf` of single types instead of a `type` array (clients that
 * map tool schemas onto single-type dialects reject those).
 */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) {
    if (k === "additionalProperties" && v !== null && typeof v === "object" && Object.keys(v).length === 0) continue;
    if (k === "type" && Array.isArray(v)) {
      out["anyOf"] = v.map((t) => ({ type: t }));
      continue;
    }
    out[k] = k === "properties" || k === "$defs" ? Object.fromEntries(Object.entries(v as JsonSchema).map(([name, sub]) => [name, portable(sub)])) : portable(v);
  }
  return out;
}

function jsonSchema(schema: z.ZodMiniType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return portable(rest) as JsonSchema;
}

/** JSON Schemas (draft 2020-12, without `$schema`) of every tool's input and output. */
export function toolJsonSchemas(): Record<ToolName, { inputSchema: JsonSchema; outputSchema: JsonSchema }> {
  const out = {} as Record<ToolName, { inputSchema: JsonSchema; outputSchema: JsonSchema }>;
  for (const [name, s] of Object.entries(TOOL_SCHEMAS) as Array<[ToolName, ToolSchemas]>) {
    out[name] = { inputSchema: jsonSchema(s.input, "input"), outputSchema: jsonSchema(s.output, "output") };
  }
  return out;
}
