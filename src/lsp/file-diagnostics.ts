/**
 * The diagnostics of each kind of file the editor opens, from the same library calls `check`
 * makes (check-files.ts), on the editor's text: a `.noma` document validated (incrementally)
 * with the work tree's lookups — a chapter in its books, a dataset's `src=` beside it — a book
 * manifest, a capability sidecar, a transcript (judged against its document as saved), a spec
 * (schema and `$ref`s, against the other specs as the editor holds them), and the two
 * configuration files (`.notarai/config.yaml`, `.norma/config.json`: each problem at its
 * key's line). The parsers, schemas and YAML are loaded when a file of their kind is judged.
 */
import { join } from "node:path";
import { documentTranscript, transcriptDocument } from "../layout/checked-path.js";
import { worktreeLookups } from "../check/worktree-lookups.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import type { ValidateOptions } from "../validate/validate-noma.js";
import type { OpenDocument } from "./open-document.js";
import type { WorkspaceRoot } from "./workspace-root.js";

/** The options a document is validated with where it lives (what `check` gives it). */
export function documentOptions(root: WorkspaceRoot | null, rel: string | undefined): ValidateOptions {
  if (root === null || rel === undefined) return {};
  const lookups = worktreeLookups(root.root);
  return {
    datasetSrcExists: (src) => lookups.datasetSrcExists(rel, src),
    resolveOutside: root.books().lookupFor(rel),
  };
}

/** A `.noma` document's own diagnostics (the editor's text, validated incrementally). */
export function nomaDiagnostics(doc: OpenDocument, root: WorkspaceRoot | null): Diagnostic[] {
  return doc.noma().validate(documentOptions(root, doc.place.rel));
}

/** A document's transcript judged as `check` judges it (against the document as saved), shown on the document at its first line. */
export async function transcriptOnDocument(root: WorkspaceRoot, rel: string): Promise<Diagnostic[]> {
  const transcript = documentTranscript(rel);
  const text = root.disk.read(join(root.root, transcript));
  if (text === null) return [];
  const strict = (await root.configuration()).transcripts === "strict";
  const { transcriptDiagnostics } = await import("../check/transcript-diagnostics.js");
  return transcriptDiagnostics(text, root.disk.read(join(root.root, rel)), rel, strict).map((d) => ({
    severity: d.severity,
    code: d.code,
    message: `${transcript}:${d.pos?.line ?? 1}: ${d.message}`,
    pos: { line: 1, column: 1 },
  }));
}

/**
 * The diagnostics of an open file that is not a `.noma` document. `openSpecs`: the specs of its
 * repository the editor has open (a `$ref` may name one not saved yet).
 */
export async function otherDiagnostics(doc: OpenDocument, root: WorkspaceRoot | null, openSpecs: readonly string[] = []): Promise<Diagnostic[]> {
  const rel = doc.place.rel;
  const text = doc.text;
  switch (doc.kind) {
    case "book": {
      const { checkNomaText } = await import("../check/check-noma-text.js");
      const lookups = root !== null && rel !== undefined ? worktreeLookups(root.root) : undefined;
      return checkNomaText(rel ?? doc.uri, text, lookups !== undefined ? { chapterExists: lookups.chapterExists } : {}).diagnostics;
    }
    case "sidecar": {
      const { checkSidecar } = await import("../check/check-sidecar.js");
      return checkSidecar(text, {});
    }
    case "transcript": {
      if (root === null || rel === undefined) return [];
      const strict = (await root.configuration()).transcripts === "strict";
      const { transcriptDiagnostics } = await import("../check/transcript-diagnostics.js");
      const document = transcriptDocument(rel);
      return transcriptDiagnostics(text, root.disk.read(join(root.root, document)), document, strict);
    }
    case "spec": {
      if (root === null || rel === undefined) return [];
      const { listSpecPaths } = await import("../governance/list-spec-paths.js");
      const { specDiagnostics } = await import("../check/spec-diagnostics.js");
      const paths = root.inRepo ? listSpecPaths(root.root) : [];
      for (const p of [rel, ...openSpecs]) if (!paths.includes(p)) paths.push(p);
      return specDiagnostics([rel], paths, (p) => root.read(p)).find((r) => r.file === rel)?.diagnostics ?? [];
    }
    case "config": {
      const { parseConfig } = await import("../config/parse-config.js");
      return parseConfig(text, rel ?? doc.uri).problems.map((p) => ({
        severity: p.severity,
        code: p.severity === "error" ? "config-invalid" : "config-ignored",
        message: p.message,
        pos: { line: p.line, column: p.column },
      }));
    }
    case "run-config": {
      const { parseRunConfig } = await import("../runs/run-config.js");
      const { positionRunConfigProblems } = await import("../runs/run-config-positions.js");
      const { located } = parseRunConfig(text, root?.root ?? "/", rel);
      return positionRunConfigProblems(text, located).map((p) => ({
        severity: "error" as const,
        code: "run-config-invalid",
        message: p.message,
        pos: { line: p.line, column: p.column },
      }));
    }
    default:
      return [];
  }
}
