/**
 * The agent contract (norma-run-loop.md §7, §8): what an agent receives
 * (AgentRequest, on stdin and in `input.json`) and what it must give back
 * (AgentResponse on stdout; `verdict.json` for check), plus the files our
 * loop adds for reconciliation: `reconciled.json` (acknowledged drift) and
 * `patch.noma.json` (Noma patch ops applied through the patch engine).
 *
 * Every shape is a zod schema: the loop validates what agents write with it,
 * and tests and agent authors can read it. Objects are loose (extra keys are
 * kept and ignored), so an agent written for a newer protocol still works.
 */
import * as z from "zod/mini";
import { describeIssues } from "./describe-issues.js";
import type { Role } from "../layout/norma-layout.js";

export const PROTOCOL_VERSION = 1;

export interface AcceptanceCriterion {
  id: string;
  text: string;
}

export interface Budgets {
  max_iterations: number;
  max_patch_kb?: number;
  max_changed_files?: number;
  max_risky_files?: number;
  /** Stop when the run's drift has not fallen for this many iterations (default 3). */
  max_stalled_iterations?: number;
}

export interface AgentRequest {
  version: 1;
  run_id: string;
  step: { index: number; role: Role; iteration: number };
  goal: string;
  norma: { acceptance_criteria: AcceptanceCriterion[]; budgets: Budgets };
  /** Absolute paths. `step_dir` is where the agent writes (the step's directory while it is being built). */
  paths: { repo_root: string; run_dir: string; step_dir: string };
  context: { previous_step_dirs: string[]; notes?: string; mcp_server?: McpServerRef };
}

/**
 * Our MCP server for this step (`noma-reconcile mcp --step RUN/NNN-role`), when the loop has one:
 * spawn `command` with `args` and speak MCP over stdio; `tools` are those the role may call
 * (the server offers no others). Also in the `NORMA_MCP_COMMAND` environment variable (a JSON argv).
 */
export interface McpServerRef {
  command: string;
  args: string[];
  tools: string[];
}

const text = z.string();
const strings = z.array(z.string());

export const AgentResponseSchema = z.looseObject({
  version: z.literal(PROTOCOL_VERSION),
  status: z.enum(["ok", "fail"]),
  summary: text,
  files: z.optional(strings),
  next_actions: z.optional(strings),
  errors: z.optional(strings),
});

export interface AgentResponse {
  version: 1;
  status: "ok" | "fail";
  summary: string;
  files: string[];
  next_actions: string[];
  errors: string[];
}

export const VerdictSchema = z.looseObject({
  version: z.literal(PROTOCOL_VERSION),
  verdict: z.enum(["PASS", "FAIL"]),
  criteria: z.array(
    z.looseObject({
      id: z.string().check(z.minLength(1)),
      text: z.optional(z.string()),
      pass: z.boolean(),
      evidence: z.optional(z.string()),
    }),
  ),
  metrics: z.optional(z.record(z.string(), z.unknown())),
  blockers: z.optional(strings),
  recommended_fix: z.optional(strings),
});

export type VerdictFile = z.infer<typeof VerdictSchema>;

/** `reconciled.json` (do, act): governed files the agent reviewed against a spec, after which spec and docs agree. */
export const ReconciledAckSchema = z.array(
  z.looseObject({
    spec: z.string().check(z.minLength(1)),
    path: z.string().check(z.minLength(1)),
    note: z.optional(z.string()),
  }),
);

export type ReconciledAck = z.infer<typeof ReconciledAckSchema>[number];

/** `patch.noma.json` (act): Noma patch ops per document, applied by the loop through the patch engine (each op judged and recorded there). */
export const NomaPatchFileSchema = z.array(
  z.looseObject({
    file: z.string().check(z.minLength(1)),
    ops: z.array(z.unknown()).check(z.minLength(1)),
  }),
);

export type NomaPatchEntry = z.infer<typeof NomaPatchFileSchema>[number];

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** Parse JSON text against a schema; problems name key paths, expectations and findings. */
export function parseJsonAs<T>(schema: z.ZodMiniType, textValue: string, what: string): Parsed<T> {
  let data: unknown;
  try {
    data = JSON.parse(textValue);
  } catch (e) {
    const snippet = textValue.trim().slice(0, 80);
    return {
      ok: false,
      problems: [`${what} is not valid JSON (${(e as Error).message})${snippet.length > 0 ? `; it starts with ${JSON.stringify(snippet)}` : "; it is empty"}`],
    };
  }
  const r = schema.safeParse(data);
  if (!r.success) return { ok: false, problems: describeIssues(r.error.issues as never, data).map((p) => `${what}: ${p}`) };
  return { ok: true, value: r.data as T };
}

export function normalizeResponse(r: z.infer<typeof AgentResponseSchema>): AgentResponse {
  return { version: 1, status: r.status, summary: r.summary, files: r.files ?? [], next_actions: r.next_actions ?? [], errors: r.errors ?? [] };
}
