/**
 * Read many objects through ONE `git cat-file --batch --buffer` process and
 * hand each to `visit` as soon as its bytes arrive, so memory holds one object
 * at a time (not the whole batch, as `readBlobs` does) and the caller's work
 * (hashing) runs while git reads the next objects.
 *
 * Names are object ids or `<commit>:<path>`; a name holding CR or LF cannot
 * travel on a batch line and is refused (read such paths by object id). With
 * `followSymlinks`, a `<commit>:<path>` naming a symlink is answered with what
 * it points to inside that commit; a link leaving the tree, dangling, looping
 * or crossing a non-directory is answered as no blob (null).
 * @see https://git-scm.com/docs/git-cat-file#_batch_output
 */
import { decodeGitText } from "./git-path.js";
import { childProcess } from "./child-process.js";
import { GitError } from "./exec-git.js";
import { GitOutputError } from "./parse-name-status.js";

export interface CatFileStreamOptions {
  followSymlinks?: boolean;
}

const OBJECT = /^([0-9a-f]{40,64}) ([a-z]+) (\d+)$/;
/** `--follow-symlinks` answers that carry a body (the link text or the name) but no object. */
const NOT_AN_OBJECT = /^(?:symlink|dangling|loop|notdir) (\d+)$/;

/**
 * Pure and incremental: feed it `git cat-file --batch` output in chunks of any size; it calls
 * `visit(name, bytes)` per requested name in order (bytes null for anything but a blob).
 * `end()` throws when the output stopped short.
 */
export function catFileBatchParser(names: readonly string[], visit: (name: string, blob: Buffer | null) => void): { feed(chunk: Buffer): void; end(): void } {
  let next = 0;
  let header: Buffer[] = [];
  /** Bytes still expected for the current entry's body and its closing LF; -1 while reading a header. */
  let need = -1;
  let isBlob = false;
  let body: Buffer[] = [];
  const name = (): string => {
    const n = names[next];
    if (n === undefined) throw new GitOutputError("cat-file --batch printed more entries than were asked for");
    return n;
  };
  const onHeader = (line: string): void => {
    const n = name();
    if (line === `${n} missing` || line === `${n} ambiguous`) {
      next++;
      visit(n, null);
      return;
    }
    const m = OBJECT.exec(line);
    const other = m === null ? NOT_AN_OBJECT.exec(line) : null;
    if (m === null && other === null) throw new GitOutputError(`cat-file --batch header ${JSON.stringify(line)} for ${JSON.stringify(n)}`);
    isBlob = m !== null && m[2] === "blob";
    need = Number(m !== null ? m[3] : other![1]) + 1;
  };
  const onBody = (): void => {
    const all = body.length === 1 ? body[0]! : Buffer.concat(body);
    body = [];
    need = -1;
    if (all[all.length - 1] !== 0x0a) throw new GitOutputError(`cat-file --batch entry for ${JSON.stringify(name())} is not followed by a line feed`);
    const n = name();
    next++;
    visit(n, isBlob ? all.subarray(0, all.length - 1) : null);
  };
  return {
    feed(chunk) {
      let at = 0;
      while (at < chunk.length) {
        if (need < 0) {
          const eol = chunk.indexOf(0x0a, at);
          if (eol === -1) {
            header.push(chunk.subarray(at));
            return;
          }
          header.push(chunk.subarray(at, eol));
          const line = decodeGitText(Buffer.concat(header));
          header = [];
          at = eol + 1;
          onHeader(line);
        } else {
          const take = Math.min(need, chunk.length - at);
          body.push(chunk.subarray(at, at + take));
          at += take;
          need -= take;
          if (need === 0) onBody();
        }
      }
    },
    end() {
      if (next !== names.length || need >= 0 || header.length > 0)
        throw new GitOutputError(`cat-file --batch output ends before the entry for ${JSON.stringify(names[next] ?? "")}`);
    },
  };
}

/** Stream the objects `names` denote to `visit`, one call per name, in order (pass each name once). */
export function streamCatFile(
  cwd: string,
  names: readonly string[],
  visit: (name: string, blob: Buffer | null) => void,
  options: CatFileStreamOptions = {},
): Promise<void> {
  for (const n of names)
    if (n.includes("\n") || n.includes("\r")) throw new TypeError(`streamCatFile: ${JSON.stringify(n)} cannot be sent on a batch line (read it by object id)`);
  if (names.length === 0) return Promise.resolve();
  const args = ["cat-file", "--batch", "--buffer", ...(options.followSymlinks === true ? ["--follow-symlinks"] : [])];
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn("git", args, { cwd, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    const parser = catFileBatchParser(names, visit);
    const stderr: Buffer[] = [];
    let failed: unknown = null;
    const fail = (e: unknown): void => {
      if (failed !== null) return;
      failed = e;
      child.kill();
    };
    child.stdout.on("data", (chunk: Buffer) => {
      if (failed !== null) return;
      try {
        parser.feed(chunk);
      } catch (e) {
        fail(e);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on("error", () => undefined); // git exiting early is reported by its exit status
    child.on("error", (e: NodeJS.ErrnoException) => {
      fail(e.code === "ENOENT" ? new GitError("git is not installed or not on PATH", args, null, "") : e);
      reject(failed);
    });
    child.on("close", (code) => {
      if (failed !== null) return reject(failed);
      const text = Buffer.concat(stderr).toString("utf8").trim();
      if (code !== 0) return reject(new GitError(`git ${args.join(" ")} failed (exit ${code})${text.length > 0 ? `: ${text}` : ""}`, args, code, text));
      try {
        parser.end();
        resolve();
      } catch (e) {
        reject(e);
      }
    });
    child.stdin.end(`${names.join("\n")}\n`);
  });
}
