/**
 * The records the tools write for audit, which no spec ever governs (pure): they
 * are evidence of work, not work to reconcile, so a spec glob that happens to
 * cover them (`docs/**`, `**`) must not turn every tool request into drift.
 *
 *  - the evidence ledger: `workspace.ledger` (default `docs/evidence_ledger.tools.log`);
 *  - the archive of overwritten versions: `<workspace.archive>/YYYY/MM/<path>.tar.zst`
 *    (default archive `archive`) — only files of that shape, so a repository's own
 *    `archive/` folder stays governed;
 *  - the run loop's records: everything under `.norma/` except `.norma/config.json`
 *    (which people write);
 *  - edit transcripts `*.noma.patches`: a transcript is the audit trail of its document,
 *    and the document is what governance judges (a transcript changes only when its
 *    document is patched, so the document's drift already says it; the transcript's own
 *    integrity is judged by `check`, the hook and `ci`, not by reconciliation).
 *
 * The locations come from `.notarai/config.yaml` (`workspace.ledger`, `workspace.archive`);
 * `buildGovernance` applies them, so every drift, affected, diff, changed, coverage and
 * mark computation leaves these files out in the same way.
 */
import { DEFAULT_WORKSPACE_CONFIG } from "../config/config-defaults.js";

export interface AuditLocations {
  /** Repository-relative path of the evidence ledger. */
  ledger: string;
  /** Repository-relative directory of the archive. */
  archive: string;
}

export type AuditKind = "ledger" | "archive" | "run-loop" | "transcript";

export const DEFAULT_AUDIT_LOCATIONS: Readonly<AuditLocations> = Object.freeze({
  ledger: DEFAULT_WORKSPACE_CONFIG.ledger,
  archive: DEFAULT_WORKSPACE_CONFIG.archive,
});

/** What each kind of record is, for messages ("… is <description>; never governed"). */
export const AUDIT_DESCRIPTIONS: Readonly<Record<AuditKind, string>> = Object.freeze({
  ledger: "the workspace tools' evidence ledger (workspace.ledger)",
  archive: "a version the workspace tools archived (workspace.archive)",
  "run-loop": "a record of the run loop (.norma/)",
  transcript: "an edit transcript (its document is what specs govern)",
});

const NORMA_PREFIX = ".norma/";
const NORMA_CONFIG = ".norma/config.json";
const TRANSCRIPT_SUFFIX = ".noma.patches";

/** A configured location as a repository-relative POSIX path (`./` and trailing `/` dropped). */
export function normalizeLocation(value: string): string {
  let v = value.trim();
  while (v.startsWith("./")) v = v.slice(2);
  while (v.endsWith("/")) v = v.slice(0, -1);
  return v;
}

/** A test giving the kind of audit record `path` is, or null. */
export function auditTest(locations: AuditLocations = DEFAULT_AUDIT_LOCATIONS): (path: string) => AuditKind | null {
  const ledger = normalizeLocation(locations.ledger);
  const archive = normalizeLocation(locations.archive);
  const archivePrefix = archive === "" || archive === "." ? "" : `${archive}/`;
  const archived = /^\d{4}\/\d{2}\/.+\.tar\.zst$/;
  return (path) => {
    if (path === ledger) return "ledger";
    if (path.length > TRANSCRIPT_SUFFIX.length && path.slice(-TRANSCRIPT_SUFFIX.length).toLowerCase() === TRANSCRIPT_SUFFIX) return "transcript";
    if (path.startsWith(NORMA_PREFIX) && path !== NORMA_CONFIG) return "run-loop";
    if (path.startsWith(archivePrefix) && archived.test(path.slice(archivePrefix.length))) return "archive";
    return null;
  };
}
