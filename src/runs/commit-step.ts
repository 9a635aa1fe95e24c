/**
 * The step commit protocol (norma §4.1): the step's files are complete in
 * `steps/NNN-role.tmp-<rand>/` → fsync → rename to `steps/NNN-role/` (atomic
 * on one file system) → one database transaction inserts the step row,
 * appends its events and updates the run. A crash before the rename leaves
 * only a temp directory (deleted on the next start); after the rename but
 * before the transaction, a step directory without a row (inserted as
 * `fail` on the next start). Never a half-written step directory.
 */
import { existsSync, renameSync } from "node:fs";
import { dirname } from "node:path";
import { crashPoint } from "./crash-point.js";
import { fsyncDir, fsyncTreeAsync } from "../fsx/fsync-tree.js";
import { normaTransaction, type NormaTx } from "./norma-db.js";
import { abs } from "../layout/norma-layout.js";
import type { RunRow, StepRow } from "./norma-schema.js";

export interface EventSpec {
  type: string;
  message: string;
  data?: unknown;
}

export interface StepCommit {
  tmpDir: string;
  step: StepRow;
  events: EventSpec[];
  run?: Partial<Omit<RunRow, "run_id">>;
  kv?: Record<string, unknown>;
  /** Further writes in the same transaction. */
  extra?: (tx: NormaTx) => void;
}

export async function commitStep(root: string, c: StepCommit): Promise<void> {
  const final = abs(root, c.step.step_dir);
  if (existsSync(final)) throw new Error(`${c.step.step_dir} already exists; refusing to overwrite a committed step`);
  await fsyncTreeAsync(c.tmpDir);
  crashPoint("step-before-rename");
  renameSync(c.tmpDir, final);
  fsyncDir(dirname(final));
  crashPoint("step-renamed");
  await normaTransaction(root, (tx) => {
    tx.insertStep(c.step);
    for (const e of c.events) tx.event(c.step.run_id, e.type, e.message, e.data);
    tx.event(c.step.run_id, "step_committed", `step ${c.step.step_index} (${c.step.role}, iteration ${c.step.iteration}) committed: ${c.step.status}`, {
      step_index: c.step.step_index,
      role: c.step.role,
      status: c.step.status,
      step_dir: c.step.step_dir,
    });
    tx.updateRun(c.step.run_id, { current_step_index: c.step.step_index, ...c.run });
    for (const [k, v] of Object.entries(c.kv ?? {})) tx.setKv(c.step.run_id, k, v);
    c.extra?.(tx);
  });
  crashPoint("step-committed");
}
