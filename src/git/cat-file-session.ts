/**
 * One `git cat-file --batch` process asked several times: each `read` writes its names and
 * resolves with their objects once git has answered them, so a caller that learns what to
 * read next from what it just read (the hook: the staged documents, then the book manifests,
 * then their chapters) pays for one process, not one per step. `end` closes git's input; a
 * session must be ended, or git waits for more names (and keeps this process alive).
 * Framing as in cat-file-batch.ts; names holding CR or LF are read one by one.
 */
import { decodeGitText, encodeGitText } from "./git-path.js";
import { parseCatFileBatch, readBlobs } from "./cat-file-batch.js";
import { childProcess } from "./child-process.js";
import { GitError } from "./exec-git.js";

interface Pending {
  names: string[];
  resolve: (blobs: Map<string, Buffer | null>) => void;
  reject: (e: Error) => void;
}

/** Where the answer to `names` ends in `out` from `at`, or -1 while it is incomplete. */
function answerEnd(out: Buffer, at: number, names: readonly string[]): number {
  for (const name of names) {
    const eol = out.indexOf(0x0a, at);
    if (eol === -1) return -1;
    const header = decodeGitText(out.subarray(at, eol));
    if (header === `${name} missing` || header === `${name} ambiguous`) {
      at = eol + 1;
      continue;
    }
    const size = Number(/ (\d+)$/.exec(header)?.[1] ?? NaN);
    if (!Number.isFinite(size)) return eol + 1; // malformed: parseCatFileBatch reports it
    at = eol + 1 + size + 1;
    if (at > out.length) return -1;
  }
  return at;
}

export class CatFileSession {
  private readonly child;
  private out: Buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];
  private failed: Error | undefined;
  private stderr = "";

  constructor(private readonly cwd: string) {
    const args = ["cat-file", "--batch"];
    this.child = childProcess().spawn("git", args, { cwd, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.out = this.out.length === 0 ? chunk : Buffer.concat([this.out, chunk]);
      this.drain();
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString("utf8")));
    this.child.stdin.on("error", () => undefined); // git gone: reported through 'close' / 'error'
    this.child.on("error", (e: NodeJS.ErrnoException) =>
      this.fail(e.code === "ENOENT" ? new GitError("git is not installed or not on PATH", args, null, "") : e),
    );
    this.child.on("close", (code: number | null) => {
      if (this.queue.length > 0)
        this.fail(
          new GitError(
            `git cat-file --batch ended (exit ${code ?? "by signal"}) before answering${this.stderr.length > 0 ? `: ${this.stderr.trim()}` : ""}`,
            args,
            code,
            this.stderr.trim(),
          ),
        );
    });
  }

  /** The blobs `names` denote (missing objects and non-blobs: null). */
  read(names: readonly string[]): Promise<Map<string, Buffer | null>> {
    const own = names.filter((n) => n.includes("\n") || n.includes("\r"));
    const batch = [...new Set(names.filter((n) => !own.includes(n)))];
    const alone = own.length > 0 ? readBlobs(this.cwd, own) : new Map<string, Buffer | null>();
    if (batch.length === 0) return Promise.resolve(alone);
    if (this.failed !== undefined) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.queue.push({ names: batch, resolve: (m) => resolve(new Map([...m, ...alone])), reject });
      this.child.stdin.write(encodeGitText(`${batch.join("\n")}\n`));
    });
  }

  /** No more names: git exits once it has answered. */
  end(): void {
    this.child.stdin.end();
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      const end = answerEnd(this.out, 0, next.names);
      if (end === -1) return;
      this.queue.shift();
      const mine = this.out.subarray(0, end);
      this.out = this.out.subarray(end);
      try {
        const blobs = new Map<string, Buffer | null>();
        for (const o of parseCatFileBatch(mine, next.names)) blobs.set(o.name, o.type === "blob" ? o.content : null);
        next.resolve(blobs);
      } catch (e) {
        next.reject(e as Error);
      }
    }
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const p of this.queue.splice(0)) p.reject(e);
  }
}
