/**
 * Pure: which uncommitted changes the PR check leaves unjudged, and how to
 * say so. `ci` judges the commit HEAD only; a local run with edits that would
 * matter once committed (documents, transcripts, sidecars, books, specs, the
 * configuration, the snapshot, governed files) names them, so a green local
 * run is never mistaken for a verdict on the work tree.
 */
import { checkedPathKind } from "../../layout/checked-path.js";
import { SNAPSHOT_PATH, type Governance } from "../../governance/governance.js";

export interface UncommittedChanges {
  /** How many relevant paths differ from HEAD in the index or the work tree (untracked included). */
  count: number;
  /** Those paths, sorted. */
  paths: string[];
}

/** Of the paths `git status` lists, those whose change could alter the verdict once committed. */
export function relevantUncommitted(paths: readonly string[], governance: Pick<Governance, "governorsOf">): UncommittedChanges {
  const out = paths.filter((p) => p === SNAPSHOT_PATH || checkedPathKind(p) !== null || governance.governorsOf(p).length > 0);
  return { count: out.length, paths: out };
}

const SHOWN = 5;

/** One line for stderr, or null when nothing was left unjudged. */
export function uncommittedMessage(u: UncommittedChanges): string | null {
  if (u.count === 0) return null;
  const shown = u.paths.slice(0, SHOWN).map((p) => JSON.stringify(p).slice(1, -1));
  const list = u.count > SHOWN ? `${shown.join(", ")} and ${u.count - SHOWN} more` : shown.join(", ");
  const one = u.count === 1;
  return (
    `${u.count} uncommitted change${one ? " was" : "s were"} not judged (${list}): ci judges the commit HEAD only; commit ${one ? "it" : "them"}, or ` +
    `run \`noma-reconcile check\` to judge the work tree`
  );
}
