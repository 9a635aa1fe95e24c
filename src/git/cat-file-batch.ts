/**
 * Read many objects with ONE `git cat-file --batch` process (not one `git show`
 * per file): index entries as `:<path>`, committed files as `<commit>:<path>`.
 * Always through the git binary with the inherited environment, so a hook's
 * temporary `GIT_INDEX_FILE` (`git commit -a`, `git commit <path>`) is honoured.
 *
 * Output framing, per requested name, in order:
 *   `<oid> SP <type> SP <size> LF <size bytes> LF`, or `<name> SP missing LF`
 *   (also `ambiguous`). Names holding CR or LF cannot travel on a batch line;
 *   they are read one by one.
 * @see https://git-scm.com/docs/git-cat-file#_batch_output
 */
import { decodeGitText, encodeGitText } from "./git-path.js";
import { execGitBuffer, GitError } from "./exec-git.js";
import { execGitAsync } from "./exec-git-async.js";
import { GitOutputError } from "./parse-name-status.js";

export interface BatchObject {
  /** The name as requested (e.g. `:docs/a.noma`, `HEAD:docs/a.noma`). */
  name: string;
  /** null when git reports the object missing (or ambiguous). */
  oid: string | null;
  type: string | null;
  content: Buffer | null;
}

/** Pure: split `git cat-file --batch` output into one entry per requested name. */
export function parseCatFileBatch(out: Buffer, names: readonly string[]): BatchObject[] {
  const result: BatchObject[] = [];
  let at = 0;
  for (const name of names) {
    const eol = out.indexOf(0x0a, at);
    if (eol === -1) throw new GitOutputError(`cat-file --batch output ends before the entry for ${JSON.stringify(name)}`);
    const header = decodeGitText(out.subarray(at, eol));
    if (header === `${name} missing` || header === `${name} ambiguous`) {
      result.push({ name, oid: null, type: null, content: null });
      at = eol + 1;
      continue;
    }
    const m = /^([0-9a-f]{40,64}) ([a-z]+) (\d+)$/.exec(header);
    if (m === null) throw new GitOutputError(`cat-file --batch header ${JSON.stringify(header)} for ${JSON.stringify(name)}`);
    const size = Number(m[3]);
    const start = eol + 1;
    const end = start + size;
    if (out[end] !== 0x0a) {
      throw new GitOutputError(`cat-file --batch entry for ${JSON.stringify(name)} is truncated (expected ${size} bytes and a line feed)`);
    }
    result.push({ name, oid: m[1]!, type: m[2]!, content: out.subarray(start, end) });
    at = end + 1;
  }
  if (at !== out.length) throw new GitOutputError(`cat-file --batch printed ${out.length - at} bytes after the last entry`);
  return result;
}

function needsOwnCall(name: string): boolean {
  return name.includes("\n") || name.includes("\r");
}

/**
 * The blobs `names` denote, read in one `git cat-file --batch` run from `cwd`.
 * Missing objects (and non-blobs such as trees or submodules) map to null.
 */
export function readBlobs(cwd: string, names: readonly string[]): Map<string, Buffer | null> {
  const out = new Map<string, Buffer | null>();
  const batch = [...new Set(names.filter((n) => !needsOwnCall(n)))];
  if (batch.length > 0) {
    const raw = execGitBuffer(["cat-file", "--batch"], { cwd, input: encodeGitText(`${batch.join("\n")}\n`) });
    for (const o of parseCatFileBatch(raw, batch)) out.set(o.name, o.type === "blob" ? o.content : null);
  }
  for (const name of names) {
    if (!needsOwnCall(name) || out.has(name)) continue;
    try {
      out.set(name, execGitBuffer(["cat-file", "blob", name], { cwd }));
    } catch (e) {
      if (!(e instanceof GitError) || e.status === null) throw e;
      out.set(name, null);
    }
  }
  return out;
}

/** `readBlobs` without blocking: git reads while this process does other work (loading modules). */
export async function readBlobsAsync(cwd: string, names: readonly string[]): Promise<Map<string, Buffer | null>> {
  const batch = [...new Set(names.filter((n) => !needsOwnCall(n)))];
  if (batch.length === 0 || batch.length !== new Set(names).size) return readBlobs(cwd, names);
  const raw = await execGitAsync(["cat-file", "--batch"], { cwd, input: `${batch.join("\n")}\n` });
  const out = new Map<string, Buffer | null>();
  for (const o of parseCatFileBatch(raw, batch)) out.set(o.name, o.type === "blob" ? o.content : null);
  return out;
}
