/**
 * Where this repository's tools write their audit records: `workspace.ledger` and
 * `workspace.archive` of the work tree's `.notarai/config.yaml` (the defaults without
 * one). An invalid configuration is a ConfigError (exit 2), as for every command that
 * reads it; unknown keys are `check`'s to report.
 */
import { CONFIG_PATH } from "../layout/checked-path.js";
import { loadConfig } from "../config/load-config.js";
import { DEFAULT_AUDIT_LOCATIONS, type AuditLocations } from "./audit-paths.js";
import { readConfigText } from "./read-config-text.js";

/** The audit locations of the configuration text `text` (default: the work tree's; null: no configuration). */
export function readAuditLocations(root: string, text: string | null = readConfigText(root)): AuditLocations {
  if (text === null) return { ...DEFAULT_AUDIT_LOCATIONS };
  const { workspace } = loadConfig({ cwd: root, read: (p) => (p === CONFIG_PATH ? text : null) });
  return { ledger: workspace.ledger, archive: workspace.archive };
}
