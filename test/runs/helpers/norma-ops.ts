/**
 * Generated norma.db transactions for the equivalence tests of its fast paths
 * (schema-checked-bytes, kept-norma-connection): the same op applied to a repository on the fast
 * path and to one on the slow path must give the same answer (a constraint failure is an answer too).
 */
import fc from "fast-check";
import { normaTransaction, type NormaState } from "../../../src/runs/norma-db.js";
import { runRow as run } from "./run-row.js";

export type NormaOp =
  | { kind: "run"; id: number }
  | { kind: "update"; id: number; iteration: number }
  | { kind: "step"; id: number; index: number }
  | { kind: "event"; id: number; message: string }
  | { kind: "kv"; id: number; key: string; value: number }
  | { kind: "delete"; id: number }
  /** A transaction that writes, then throws: rolled back, nothing written. */
  | { kind: "fail"; id: number };

/** The run id of op id `n`. */
export const rid = (n: number): string => `20260105-100000-00000${n}`;

/** Ops on four runs; with `fail`, also transactions that write and then throw. */
export function normaOpArb(options: { fail: boolean }): fc.Arbitrary<NormaOp> {
  const id = fc.integer({ min: 0, max: 3 });
  return fc.oneof(
    fc.record({ kind: fc.constant("run" as const), id }),
    fc.record({ kind: fc.constant("update" as const), id, iteration: fc.integer({ min: 1, max: 9 }) }),
    fc.record({ kind: fc.constant("step" as const), id, index: fc.integer({ min: 1, max: 4 }) }),
    fc.record({ kind: fc.constant("event" as const), id, message: fc.string({ maxLength: 12 }) }),
    fc.record({ kind: fc.constant("kv" as const), id, key: fc.constantFrom("a", "b"), value: fc.integer() }),
    fc.record({ kind: fc.constant("delete" as const), id }),
    ...(options.fail ? [fc.record({ kind: fc.constant("fail" as const), id })] : []),
  );
}

/**
 * One transaction: "ok" (with `readBack`, "ok " and what the transaction read after its write: the state it
 * ran on, as an answer), or the error's name and message.
 */
export async function applyNormaOp(root: string, op: NormaOp, options: { readBack?: boolean } = {}): Promise<string> {
  try {
    const seen = await normaTransaction(root, (tx) => {
      const id = rid(op.id);
      if (op.kind === "run") tx.insertRun(run(id));
      else if (op.kind === "update") tx.updateRun(id, { iteration: op.iteration });
      else if (op.kind === "step")
        tx.insertStep({
          run_id: id,
          step_index: op.index,
          role: "do",
          iteration: 1,
          status: "ok",
          step_dir: `.norma/runs/${id}/steps/00${op.index}-do`,
          started_at: "2026-01-05T10:00:01.000Z",
          ended_at: null,
          summary: null,
        });
      else if (op.kind === "event") tx.event(id, "note", op.message, undefined, "2026-01-05T10:00:02.000Z");
      else if (op.kind === "kv") tx.setKv(id, op.key, op.value);
      else if (op.kind === "delete") tx.deleteRun(id);
      else {
        tx.setKv(id, "doomed", 1);
        throw new Error("the transaction gives up");
      }
      return options.readBack === true
        ? JSON.stringify({ run: tx.run(id), steps: tx.steps(id).length, events: tx.events(id).length, kv: tx.kv(id, "a") ?? null })
        : "";
    });
    return options.readBack === true ? `ok ${seen}` : "ok";
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
}

/** A state as plain data, to compare two repositories' states. */
export function plainNormaState(state: NormaState | null): unknown {
  if (state === null) return null;
  return state.runs.map((r) => ({ r, steps: state.steps(r.run_id), events: state.events(r.run_id), kv: [...state.kv(r.run_id)] }));
}
