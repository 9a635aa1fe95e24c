/** A `runs` row as a new run writes it (status running, first iteration), for tests of norma.db. */
import type { RunRow } from "../../../src/runs/norma-schema.js";

export const runRow = (id: string, created = "2026-01-05T10:00:00.000Z"): RunRow => ({
  run_id: id,
  created_at: created,
  goal: `goal ${id}`,
  status: "running",
  iteration: 1,
  current_step_index: 0,
  verdict: null,
  run_dir: `.norma/runs/${id}`,
});
