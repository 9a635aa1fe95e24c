/**
 * MCP `validate_doc` (Annex B.5): the diagnostics `noma-reconcile check` gives
 * for one document (profile from its frontmatter; `::dataset src=` files are
 * looked up beside the document, inside the repository). `ok` is true when no
 * diagnostic is an error.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkDocument } from "../../check/check-document.js";
import { containPath } from "../../fsx/contain-path.js";
import type { Diagnostic } from "../../validate/diagnostic.js";
import type { ToolContext } from "../tool-context.js";
import { documentArg } from "./document-arg.js";
import { readTextFile } from "../../fsx/read-text-file.js";

export interface ValidateDocResult {
  ok: boolean;
  diagnostics: Diagnostic[];
}

export async function validateDocTool(args: { file: string }, ctx: ToolContext): Promise<ValidateDocResult> {
  const { abs, rel } = documentArg(args.file, ctx);
  const srcExists = (_from: string, src: string): boolean => {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(src)) return true;
    try {
      const target = join(ctx.root, containPath(join(dirname(abs), src), ctx.root, ctx.root));
      return existsSync(target) && statSync(target).isFile();
    } catch {
      return false;
    }
  };
  const { diagnostics } = checkDocument(rel, readTextFile(abs), { datasetSrcExists: srcExists });
  return { ok: !diagnostics.some((d) => d.severity === "error"), diagnostics };
}
