/**
 * Whether a path names a book manifest (`*.noma.yml`, `*.noma.yaml`): on its own, so that the
 * MCP tools that only read a document (read_doc, list_ids, validate_doc) can refuse a manifest
 * without loading the patch engine that patch-document.ts is.
 */
export function isBookManifestPath(p: string): boolean {
  return /\.noma\.ya?ml$/i.test(p);
}
