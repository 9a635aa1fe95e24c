/**
 * Write a report page where `runs show --html FILE` / `runs report FILE` say: a path inside the
 * repository (relative to the working directory; symbolic links resolved), never under `.git/`,
 * written atomically (temp file, fsync, rename), its directory created when missing.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { UsageError } from "../../errors/noma-error.js";
import { containPath, PathOutsideRepoError } from "../../fsx/contain-path.js";
import { writeFileAtomic } from "../../fsx/write-file-atomic.js";
import { isGitComponent } from "../../workspace/path-rules.js";

/** Returns the repo-relative path written and its size in bytes. */
export function writeReport(root: string, cwd: string, file: string, html: string): { path: string; bytes: number } {
  let rel: string;
  try {
    rel = containPath(file, root, cwd);
  } catch (e) {
    if (e instanceof PathOutsideRepoError)
      throw new UsageError(`${file}: outside the repository (${root}); write the report inside it (e.g. .norma/report.html, which git ignores)`);
    throw e;
  }
  if (rel === "" || rel.split("/").some(isGitComponent))
    throw new UsageError(`${file}: not a file the report may be written to (the repository root, or under .git/)`);
  const target = join(root, rel);
  mkdirSync(dirname(target), { recursive: true });
  const bytes = Buffer.from(html, "utf8");
  writeFileAtomic(target, bytes);
  return { path: rel, bytes: bytes.length };
}
