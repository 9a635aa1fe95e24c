/**
 * The run state kept in `kv_run` of `.norma/norma.db`, read back with a zod
 * schema per key (a resumed run, the pending patch), never cast: a value the
 * schema does not accept is a `RunStateError` naming the run, the key, where in
 * the value, what was expected and what was found. Objects are loose (a newer
 * version may store more).
 */
import * as z from "zod/mini";
import { NomaError } from "../errors/noma-error.js";
import { NORMA_DB } from "../layout/norma-layout.js";
import { describeIssues } from "./describe-issues.js";

export class RunStateError extends NomaError {
  static override readonly errorName: string = "RunStateError";
  constructor(message: string) {
    super("run-state-invalid", message);
  }
}

const nonEmpty = z.string().check(z.minLength(1));
const count = z.number().check(z.int(), z.minimum(0));

const CriterionSchema = z.looseObject({
  id: nonEmpty,
  text: z.string(),
  kind: z.enum(["drift", "documents", "tests", "custom"]),
  spec: z.optional(z.string()),
  argv: z.optional(z.array(z.string())),
});

const StoredBudgetsSchema = z.looseObject({
  max_iterations: z.number().check(z.int(), z.minimum(1)),
  max_patch_kb: z.optional(z.number()),
  max_changed_files: z.optional(count),
  max_risky_files: z.optional(count),
});

const AckSchema = z.looseObject({
  spec: nonEmpty,
  path: nonEmpty,
  hash: z.nullable(z.string()),
  step: count,
  note: z.optional(z.string()),
});

const PendingPatchSchema = z.looseObject({
  step: z.number().check(z.int(), z.minimum(1)),
  started: z.optional(z.boolean()),
  reason: z.optional(z.string()),
  acks: z.optional(z.array(z.unknown())),
});

const WorktreeSchema = z.looseObject({
  dir: nonEmpty,
  branch: nonEmpty,
  base: z.string().check(z.regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, "a commit id")),
  ready: z.boolean(),
});

const ActChangeSchema = z.looseObject({
  step: z.number().check(z.int(), z.minimum(1)),
  fingerprint: nonEmpty,
  proposal: z.array(z.string()),
  changed: z.array(z.string()),
});

const DriftCountSchema = z.looseObject({ iteration: count, step: count, open: count });

/** Each key's schema. */
export const STORED_RUN_STATE = {
  criteria: z.array(CriterionSchema),
  budgets: StoredBudgetsSchema,
  specs: z.array(z.string()),
  mark: z.boolean(),
  start_head: z.nullable(z.string()),
  acks: z.array(AckSchema),
  changed_files: z.array(z.string()),
  pending_patch: PendingPatchSchema,
  worktree: WorktreeSchema,
  last_change: ActChangeSchema,
  drift_counts: z.array(DriftCountSchema),
} as const;

export type StoredKey = keyof typeof STORED_RUN_STATE;
export type StoredValue<K extends StoredKey> = z.infer<(typeof STORED_RUN_STATE)[K]>;

/** The value of `key` for run `runId` (undefined when it was never stored); RunStateError when it does not have its shape. */
export function readStored<K extends StoredKey>(kv: ReadonlyMap<string, unknown>, runId: string, key: K): StoredValue<K> | undefined {
  if (!kv.has(key)) return undefined;
  const value = kv.get(key);
  const r = STORED_RUN_STATE[key].safeParse(value);
  if (r.success) return r.data as StoredValue<K>;
  const problems = describeIssues(r.error.issues as never, value, [key]);
  throw new RunStateError(
    `${NORMA_DB}: run ${runId}: the stored ${key} is damaged (${problems.join("; ")}); the run cannot go on — start a new run (\`noma-reconcile ` +
      `runs show ${runId}\` shows what it did)`,
  );
}
