/**
 * The `file` argument of the Noma tools: absolute or relative to the
 * repository root, contained in the repository (symlinks resolved), an
 * existing file, and not a book manifest (Annex B: manifests are not targets
 * of any of the four tools). Each failure is a system fault (`isError`).
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { containPath, PathOutsideRepoError } from "../../fsx/contain-path.js";
import { isBookManifestPath } from "../../editing/patch-document.js";
import type { ToolContext } from "../tool-context.js";
import { ToolFailure } from "../tool-result.js";

export interface DocumentArg {
  /** Absolute path (the repository root joined with `rel`). */
  abs: string;
  /** Repository-relative POSIX path. */
  rel: string;
}

/** `book`: a book manifest is accepted too (patch_block patches a book across its chapters). */
export function documentArg(file: string, ctx: ToolContext, book = false): DocumentArg {
  let rel: string;
  try {
    rel = containPath(file, ctx.root, ctx.root);
  } catch (e) {
    if (e instanceof PathOutsideRepoError) throw new ToolFailure(`${file}: path is outside the repository (${ctx.root}); nothing was read or written`);
    throw e;
  }
  if (!book && isBookManifestPath(rel)) {
    throw new ToolFailure(
      `${file}: a book manifest (.noma.yml) is not a valid target (unsupported_op, Noma §2.3); address the chapter's .noma file with its unscoped ids`,
    );
  }
  const abs = join(ctx.root, rel);
  let isFile = false;
  try {
    isFile = statSync(abs).isFile();
  } catch {
    throw new ToolFailure(`${file}: no such file`);
  }
  if (!isFile) throw new ToolFailure(`${file}: not a file`);
  return { abs, rel };
}
