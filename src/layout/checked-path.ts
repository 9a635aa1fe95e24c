/**
 * Which files `check` (and the pre-commit hook, and the PR check) judges, by
 * path alone. Pure and dependency-free: the hook calls it before loading any
 * parser, so a commit that stages nothing relevant costs one git call.
 */

export type CheckedKind = "document" | "book" | "sidecar" | "transcript" | "spec" | "config";

/** The root configuration file, at the repository's top level. */
export const CONFIG_PATH = ".notarai/config.yaml";

/** `<doc>.patches` → `<doc>` (a transcript sits beside its document). */
export const TRANSCRIPT_SUFFIX = ".patches";

export function checkedPathKind(path: string): CheckedKind | null {
  const lower = path.toLowerCase();
  if (lower.endsWith(".noma")) return "document";
  if (lower.endsWith(".noma.patches")) return "transcript";
  if (lower.endsWith(".noma.capabilities.yml")) return "sidecar";
  if (lower.endsWith(".noma.yml") || lower.endsWith(".noma.yaml")) return "book";
  if (path.startsWith(".notarai/")) {
    if (path === CONFIG_PATH) return "config";
    if (path.endsWith(".spec.yaml")) return "spec";
  }
  return null;
}

/** The document a transcript belongs to. */
export function transcriptDocument(transcript: string): string {
  return transcript.slice(0, -TRANSCRIPT_SUFFIX.length);
}

/** The transcript of a document. */
export function documentTranscript(document: string): string {
  return `${document}${TRANSCRIPT_SUFFIX}`;
}

/** Paths whose text judging `targets` may need besides the specs: each target, a document's transcript, a transcript's document. */
export function relatedPaths(targets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const t of targets) {
    const kind = checkedPathKind(t);
    if (kind === null) continue;
    out.add(t);
    if (kind === "document") out.add(documentTranscript(t));
    if (kind === "transcript") out.add(transcriptDocument(t));
  }
  return [...out];
}
