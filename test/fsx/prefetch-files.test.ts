/**
 * Large documents named to `check` are read ahead, while the command's modules load
 * (prefetch-files.ts, handed to the command by the bin): only regular files of at least PREFETCH_MIN_BYTES, never through a
 * link, found again by real path, used once. Through the real CLI: a large document and its
 * transcript are judged exactly as before (the document read once, for both), and a large
 * document that links outside the repository is still refused with none of its bytes printed.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { type BigIntStats, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PREFETCH_MIN_BYTES, prefetchFiles, unchangedSince } from "../../src/fsx/prefetch-files.js";
import { acquireFileLock } from "../../src/fsx/with-file-lock.js";
import { lockPathFor } from "../../src/editing/patch-document.js";
import { CLI, runCli } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";

/** A valid document of at least `bytes` bytes; `marker` goes into every section's prose. */
function largeDocument(bytes: number, marker = "prose"): string {
  const parts: string[] = [];
  for (let n = 0, size = 0; size < bytes; n++) {
    const s = `## Section ${n}\n\nSome ${marker} about section ${n}.\n\n::claim{id="c${n}" confidence=0.5}\nClaim ${n}.\n::\n\n::evidence{id="e${n}" for="c${n}"}\nSeen.\n::\n\n`;
    parts.push(s);
    size += s.length;
  }
  return parts.join("");
}

/**
 * Sets `file`'s access time an hour before its mtime, which the next read replaces (relatime,
 * strictatime; not noatime); returns whether that read has happened yet.
 */
function watchForRead(file: string): () => boolean {
  const unread = (statSync(file).mtimeMs - 3_600_000) / 1000;
  utimesSync(file, unread, statSync(file).mtimeMs / 1000);
  return () => statSync(file).atimeMs / 1000 > unread + 1;
}

/** Whether reading a file in `dir` moves its access time. */
function readsMoveAccessTime(dir: string): boolean {
  const probe = join(dir, "atime-probe");
  writeFileSync(probe, "x");
  const read = watchForRead(probe);
  readFileSync(probe);
  return read();
}

describe("prefetchFiles", () => {
  it("reads regular files from PREFETCH_MIN_BYTES on, never through a link; found by real path, once", async () => {
    const dir = tempDir();
    const big = join(dir, "big.noma");
    const small = join(dir, "small.noma");
    writeFileSync(big, largeDocument(PREFETCH_MIN_BYTES + 10));
    writeFileSync(small, largeDocument(1000));
    mkdirSync(join(dir, "real"));
    writeFileSync(join(dir, "real/in.noma"), largeDocument(PREFETCH_MIN_BYTES));
    symlinkSync(join(dir, "real"), join(dir, "linked-dir"));
    symlinkSync(big, join(dir, "link.noma"));
    const prefetched = prefetchFiles([big, small, join(dir, "linked-dir/in.noma"), join(dir, "link.noma"), join(dir, "missing.noma"), dir]);
    await prefetched.settle();
    expect(prefetched.take(big)?.equals(readFileSync(big))).toBe(true);
    expect(prefetched.take(big)).toBeUndefined(); // used once
    expect(prefetched.take(small)).toBeUndefined(); // too small to be worth a thread-pool round trip
    // A path through a linked directory is a regular file: read, and found again under either path.
    expect(prefetched.take(join(dir, "real/in.noma"))?.equals(readFileSync(join(dir, "real/in.noma")))).toBe(true);
    // A link itself is never read ahead (it is judged, maybe refused, before anything is read).
    const viaLink = prefetchFiles([join(dir, "link.noma")]);
    await viaLink.settle();
    expect(viaLink.take(join(dir, "link.noma"))).toBeUndefined();
    expect(viaLink.take(big)).toBeUndefined();
    expect(prefetched.take(join(dir, "missing.noma"))).toBeUndefined();
  });

  it("reads a file of several MiB whole, byte for byte (one read of its size, not fs.readFile's 512 KiB pieces)", async () => {
    const dir = tempDir();
    const path = join(dir, "large.noma");
    // Not a multiple of any buffer size; bytes of every value.
    const bytes = Buffer.alloc(6 * 1024 * 1024 + 12345);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    writeFileSync(path, bytes);
    const exact = join(dir, "exact.noma");
    writeFileSync(exact, Buffer.alloc(PREFETCH_MIN_BYTES, 0x61));
    const prefetched = prefetchFiles([path, exact]);
    await prefetched.settle();
    const got = prefetched.take(path);
    expect(got?.length).toBe(bytes.length);
    expect(got?.equals(bytes)).toBe(true);
    expect(prefetched.take(exact)?.equals(readFileSync(exact))).toBe(true);
  });
});

describe("check of a large document (read ahead)", () => {
  it("judges the document and its transcript as before", () => {
    const repo = tempRepo({ "docs/big.noma": largeDocument(2 * PREFETCH_MIN_BYTES, "entrée") });
    const patched = runCli(
      ["patch", "docs/big.noma", "--op", JSON.stringify({ op: "update_attribute", id: "c7", key: "confidence", value: 0.25 }), "--actor-name", "t"],
      { cwd: repo },
    );
    expect(patched.code, patched.stderr).toBe(0);
    const ok = runCli(["check", "docs/big.noma", "--format", "json"], { cwd: repo });
    expect(ok.code, ok.stderr).toBe(0);
    const report = JSON.parse(ok.stdout).result as { files: Array<{ file: string; diagnostics: unknown[] }> };
    expect(report.files.map((f) => f.file).sort()).toEqual(["docs/big.noma", "docs/big.noma.patches"]);
    expect(report.files.flatMap((f) => f.diagnostics)).toEqual([]);
    // An edit outside the patch protocol is still caught by the transcript's judgement.
    const path = join(repo, "docs/big.noma");
    writeFileSync(path, readFileSync(path, "utf8").replace('id="c9" confidence=0.5', 'id="c9" confidence=0.9'));
    const drifted = runCli(["check", "docs/big.noma", "--format", "json"], { cwd: repo });
    expect(drifted.stdout).toContain("docs/big.noma.patches");
    expect(drifted.stdout).toMatch(/transcript-[a-z-]+/);
  });

  it("still refuses a large document that links outside the repository, printing none of its bytes", () => {
    const outside = join(tempDir("nr-outside-"), "secret.noma");
    writeFileSync(outside, `TOP-SECRET\n\n${largeDocument(2 * PREFETCH_MIN_BYTES)}`);
    const repo = tempRepo({ "a.noma": "# A\n" });
    symlinkSync(outside, join(repo, "b.noma"));
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "link"]);
    const r = runCli(["check", "b.noma"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/b\.noma.*outside/);
    expect(r.stdout + r.stderr).not.toContain("TOP-SECRET");
  });

  it("hands patch the bytes read ahead only for the file as it was: an unchanged stat, and a ctime older than a clock tick", async () => {
    const dir = tempDir();
    const file = join(dir, "doc.noma");
    writeFileSync(file, largeDocument(PREFETCH_MIN_BYTES + 10));
    const st = statSync(file, { bigint: true });
    const ctimeMs = Number(st.ctimeNs / 1_000_000n);
    const coarse = st.ctimeNs % 1_000_000_000n === 0n;
    const later = ctimeMs + (coarse ? 3_000 : 50);
    expect(unchangedSince(st, later, st)).toBe(true);
    expect(unchangedSince(st, later - 1, st)).toBe(false); // racily clean: a write in the same tick could hide
    for (const field of ["dev", "ino", "size", "mtimeNs", "ctimeNs"] as const) {
      const changed = { ...st, [field]: st[field] + 1n } as BigIntStats;
      expect(unchangedSince(st, later, changed), field).toBe(false);
    }

    await new Promise((r) => setTimeout(r, 80));
    const unchanged = prefetchFiles([file]);
    await unchanged.settle();
    if (!coarse) expect(unchanged.takeUnchanged(file, statSync(file, { bigint: true }))?.equals(readFileSync(file))).toBe(true);
    // Rewritten in place with as many bytes, after the read: not the file read.
    await new Promise((r) => setTimeout(r, 80));
    const rewritten = prefetchFiles([file]);
    await rewritten.settle();
    writeFileSync(file, readFileSync(file, "utf8").replace("Claim 3.", "Claim 4."));
    expect(rewritten.takeUnchanged(file, statSync(file, { bigint: true }))).toBeUndefined();
    // Replaced by a rename (a new inode), even with the same bytes.
    await new Promise((r) => setTimeout(r, 80));
    const replaced = prefetchFiles([file]);
    await replaced.settle();
    writeFileSync(`${file}.tmp`, readFileSync(file));
    renameSync(`${file}.tmp`, file);
    expect(replaced.takeUnchanged(file, statSync(file, { bigint: true }))).toBeUndefined();
  });

  it("patch applies its op to the document as it is under the lock, not as it was read ahead", async () => {
    const repo = tempRepo({ "big.noma": largeDocument(2 * PREFETCH_MIN_BYTES) });
    const doc = join(repo, "big.noma");
    // The moment the CLI has read the document ahead is seen by its access time moving: set an
    // access time long before its mtime, which the first read replaces (relatime updates it then).
    const readAhead = readsMoveAccessTime(tempDir()) ? watchForRead(doc) : undefined;
    await new Promise((r) => setTimeout(r, 80)); // an old ctime: the read-ahead bytes would be eligible
    const lock = await acquireFileLock(lockPathFor(doc));
    const op = JSON.stringify({ op: "update_attribute", id: "c7", key: "confidence", value: 0.25 });
    const child = spawn(process.execPath, [CLI, "patch", "big.noma", "--op", op, "--actor-name", "t", "--format", "json"], {
      cwd: repo,
      env: { ...process.env, NO_COLOR: "1" },
    });
    let out = "";
    let exited = false;
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const done = new Promise<number | null>((resolve) =>
      child.on("close", (code) => {
        exited = true;
        resolve(code);
      }),
    );
    // The CLI starts, reads ahead and waits for the lock; meanwhile another writer changes the
    // document in place, keeping its size.
    if (readAhead !== undefined) {
      while (!readAhead()) {
        expect(exited, "the CLI ended before it read the document").toBe(false);
        await new Promise((r) => setTimeout(r, 10));
      }
    } else {
      console.warn("prefetch-files.test.ts: this file system keeps no access times (noatime); assuming the CLI has read ahead within 1.5 s");
      await new Promise((r) => setTimeout(r, 1500));
    }
    const edited = readFileSync(doc, "utf8").replace("Claim 3.", "Claim 4.");
    writeFileSync(doc, edited);
    lock.release();
    expect(await done).toBe(0);
    const after = readFileSync(doc, "utf8");
    expect(after).toContain('Claim 4.\n::\n\n::evidence{id="e3"');
    expect(after).toContain('::claim{id="c7" confidence=0.25}');
    const result = (JSON.parse(out) as { result: { pre_sha256?: string; preSha256?: string } }).result;
    const pre = result.pre_sha256 ?? result.preSha256;
    expect(pre).toBe(createHash("sha256").update(edited).digest("hex"));
  });
});
