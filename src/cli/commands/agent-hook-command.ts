/**
 * The steps of `noma-reconcile agent-hook` that need the library's parser, validator, patch
 * ops or specs, loaded by the bin (cli/agent-hook-run.ts) only for a tool call that writes a
 * `.noma` document, after an edit (governance), or where the configuration names where the
 * evidence ledger and the archive live.
 */
export { judgeDocumentWrites } from "../../hooks/document-gate.js";
export { postEditContext } from "../../hooks/post-edit-context.js";
export { readAuditLocations } from "../../governance/read-audit-locations.js";
