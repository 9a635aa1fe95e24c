/**
 * Budgets that catch a stuck agent (besides `max_iterations`):
 *
 * - the same change twice: an act step whose proposal — its `patch.diff`,
 *   `patch.noma.json` and `reconciled.json`, and the files it changed itself
 *   with their contents — is byte for byte the one of the act step before it
 *   (nothing at all, twice, is the same change too). Its patch is not applied.
 *   A proposal that never took effect (its patch failed, or was rolled back after
 *   a crash) is forgotten: the retried act step may propose it again.
 * - drift that does not fall: after each failed check the run's open drift is
 *   counted (files its specs govern whose content is neither reconciled nor
 *   acknowledged by the run); when the count is no lower than it was
 *   `max_stalled_iterations` iterations before (default 3), and that was not
 *   zero, the run stops.
 *
 * Either ends the run as `stopped` with an `agent_stuck` event whose data is the
 * evidence (the steps and fingerprint, or the counts per iteration). Pure but for
 * reading the act step's files.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_MAX_STALLED_ITERATIONS } from "./run-config.js";

export interface ActChange {
  step: number;
  /** sha256 of the proposal. */
  fingerprint: string;
  /** Which of the step's proposal files it had. */
  proposal: string[];
  /** Files the agent changed itself. */
  changed: string[];
}

export interface DriftCount {
  iteration: number;
  step: number;
  open: number;
}

export const PROPOSAL_FILES = ["patch.diff", "patch.noma.json", "reconciled.json"] as const;

function fileHash(abs: string): string {
  try {
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) return `link:${readlinkSync(abs)}`;
    return createHash("sha256").update(readFileSync(abs)).digest("hex");
  } catch {
    return "absent";
  }
}

/** The fingerprint of what an act step proposes (its step directory, absolute) and changed in the workspace. */
export function actChange(step: number, stepDir: string, changed: readonly string[], workspace: string): ActChange {
  const h = createHash("sha256");
  const proposal: string[] = [];
  for (const f of PROPOSAL_FILES) {
    const p = join(stepDir, f);
    if (!existsSync(p)) continue;
    proposal.push(f);
    h.update(`${f}\0`).update(readFileSync(p)).update("\0");
  }
  const files = [...changed].sort();
  for (const f of files) h.update(`changed:${f}\0${fileHash(join(workspace, f))}\0`);
  return { step, fingerprint: h.digest("hex"), proposal, changed: files };
}

/** The act step before this one proposed exactly this change: the evidence, else null. */
export function repeatedChange(previous: ActChange | undefined, current: ActChange): { previous: number; message: string; data: object } | null {
  if (previous === undefined || previous.fingerprint !== current.fingerprint) return null;
  const what =
    current.proposal.length === 0 && current.changed.length === 0
      ? "nothing (no patch, no acknowledgement, no file changed), both times"
      : [
          ...(current.proposal.length > 0 ? [`${current.proposal.join(", ")} identical`] : []),
          ...(current.changed.length > 0 ? [`the same contents of ${current.changed.join(", ")}`] : []),
        ].join("; ");
  return {
    previous: previous.step,
    message:
      `the act agent proposed the same change in steps ${previous.step} and ${current.step} (${what}): it is stuck; nothing of step ${current.step} ` +
      `was applied`,
    data: {
      kind: "repeated_change",
      steps: [previous.step, current.step],
      fingerprint: current.fingerprint,
      proposal: current.proposal,
      changed: current.changed,
    },
  };
}

/** The open drift has not fallen for `limit` iterations (counts: one per failed check, oldest first): the evidence, else null. */
export function driftStalled(counts: readonly DriftCount[], limit: number = DEFAULT_MAX_STALLED_ITERATIONS): { message: string; data: object } | null {
  if (counts.length <= limit) return null;
  const current = counts[counts.length - 1]!;
  const past = counts[counts.length - 1 - limit]!;
  if (past.open === 0 || current.open < past.open) return null;
  const window = counts.slice(counts.length - 1 - limit);
  const shown = window.map((c) => `iteration ${c.iteration}: ${c.open}`).join(", ");
  return {
    message: `the open drift has not fallen for ${limit} iteration${limit === 1 ? "" : "s"} (${shown}; max_stalled_iterations ${limit}): the agents are stuck`,
    data: { kind: "drift_stalled", limit, counts: window },
  };
}
