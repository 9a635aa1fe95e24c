/**
 * Large documents named to `check` are read ahead, while the command's modules load
 * (prefetch-files.ts, handed to the command by the bin): only regular files of at least PREFETCH_MIN_BYTES, never through a
 * link, found again by real path, used once. Through the real CLI: a large document and its
 * transcript are judged exactly as before (the document read once, for both), and a large
 * document that links outside the repository is still refused with none of its bytes printed.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PREFETCH_MIN_BYTES, prefetchFiles } from "../../src/fsx/prefetch-files.js";
import { runCli } from "../helpers/run-cli.js";
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
});

describe("check of a large document (read ahead)", () => {
  it("judges the document and its transcript as before", () => {
    const repo = tempRepo({ "docs/big.noma": largeDocument(2 * PREFETCH_MIN_BYTES, "entrée") });
    const patched = runCli(["patch", "docs/big.noma", "--op", JSON.stringify({ op: "update_attribute", id: "c7", key: "confidence", value: 0.25 }), "--actor-name", "t"], { cwd: repo });
    expect(patched.code, patched.stderr).toBe(0);
    const ok = runCli(["check", "docs/big.noma", "--format", "json"], { cwd: repo });
    expect(ok.code, ok.stderr).toBe(0);
    const report = JSON.parse(ok.stdout) as { files: Array<{ file: string; diagnostics: unknown[] }> };
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
});
