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

/**
 * `checkedPathKind` as git pathspecs, for the installed hook, which asks git whether a staged
 * path is among them before it starts node (hook-script.ts). Each names one rule above: the
 * suffixes case-insensitively (`icase`: ASCII, as `toLowerCase` is on these suffixes: no other
 * character lowercases to one of their letters), the `.notarai/` ones as written. `glob`: `*`
 * stops at `/` and a leading `**` and slash is any number of directories, none included; a name is matched as
 * bytes, so a newline, a quote, a leading dash or a byte that is not UTF-8 in it is one more
 * character. `literal` matches the path and anything under it as a directory (a superset).
 * Equal to `checkedPathKind(path) !== null` on every name (test/hooks/hook-filter.property.test.ts).
 */
export const CHECKED_PATHSPECS: readonly string[] = [
  ":(top,glob,icase)**/*.noma",
  ":(top,glob,icase)**/*.noma.patches",
  ":(top,glob,icase)**/*.noma.capabilities.yml",
  ":(top,glob,icase)**/*.noma.yml",
  ":(top,glob,icase)**/*.noma.yaml",
  ":(top,glob).notarai/**/*.spec.yaml",
  `:(top,literal)${CONFIG_PATH}`,
];

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
