/**
 * Archive before overwrite, read back by the system's own tools:
 * - overwriting a file three times leaves one archive for the month with members
 *   `<path>.~1~` … `.~3~`, which GNU tar + zstd (/usr/bin) extract byte for byte, with
 *   the original mode and mtime — long paths (pax) and non-ASCII names included;
 * - earlier members stay byte-identical as versions are appended (the tar is never re-packed);
 * - a month boundary starts a new archive; `archive list` / `archive restore` (the CLI)
 *   find every version and restore one, archiving the current version first;
 * - an unreadable archive is never rewritten: the overwrite is refused and the file kept;
 * - tarMembers agrees with modern-tar on archives of random members (property).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { packTar, unpackTar } from "modern-tar";
import { describe, expect, it } from "vitest";
import { loadZstd } from "../../src/workspace/load-zstd.js";
import { listArchived } from "../../src/workspace/read-archive.js";
import { runWorkspaceTool } from "../../src/workspace/run-workspace-tool.js";
import { tarMembers } from "../../src/workspace/tar-members.js";
import { verifyLedger } from "../../src/workspace/verify-ledger.js";
import { openWorkspace } from "../../src/workspace/workspace.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const HAVE_SYSTEM_TAR = existsSync("/usr/bin/tar") && existsSync("/usr/bin/zstd") && spawnSync("/usr/bin/tar", ["--zstd", "--version"]).status === 0;
if (!HAVE_SYSTEM_TAR) console.warn("archive.test.ts: /usr/bin/tar with --zstd or /usr/bin/zstd is missing: the system-extraction checks are SKIPPED");

function extract(archiveAbs: string): string {
  const out = tempDir("nr-extract-");
  execFileSync("/usr/bin/tar", ["--zstd", "-xpf", archiveAbs, "-C", out]);
  return out;
}

describe("archive before overwrite", () => {
  it.skipIf(!HAVE_SYSTEM_TAR)("every overwritten version comes out of the archive with the system tar + zstd, bytes, mode and mtime intact", async () => {
    const longDir = `deep/${"a-rather-long-directory-name/".repeat(6)}ünïcode`;
    const rel = `${longDir}/file-with-a-long-name.txt`;
    const root = tempRepo({ [rel]: "version one\n" });
    chmodSync(join(root, rel), 0o754);
    utimesSync(join(root, rel), new Date("2021-02-03T04:05:06Z"), new Date("2021-02-03T04:05:06Z"));
    let month = new Date("2026-05-10T12:00:00Z");
    const ws = () => openWorkspace(root, { now: () => month });
    const versions = ["version one\n", "version two\n", Buffer.from([0, 1, 2, 255, 10]).toString("latin1"), "version four\n"];
    for (const v of versions.slice(1)) {
      const r = await runWorkspaceTool(ws(), "edit_file", { path: rel, contents: v });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const archive = `archive/2026/05/${rel}.tar.zst`;
    expect(rel.length).toBeGreaterThan(200);
    const out = extract(join(root, archive));
    for (let i = 0; i < 3; i++) {
      const member = join(out, `${rel}.~${i + 1}~`);
      expect(readFileSync(member), `version ${i + 1}`).toEqual(Buffer.from(versions[i]!, "utf8"));
    }
    const first = statSync(join(out, `${rel}.~1~`));
    expect(first.mode & 0o777).toBe(0o754);
    expect(first.mtime.toISOString()).toBe("2021-02-03T04:05:06.000Z");
    // the live file kept its mode through the atomic writes
    expect(statSync(join(root, rel)).mode & 0o777).toBe(0o754);
    // tar's own listing agrees: three members, in order
    const listing = execFileSync("/usr/bin/tar", ["--zstd", "-tf", join(root, archive)], { encoding: "utf8" })
      .trim()
      .split("\n");
    expect(listing).toEqual([1, 2, 3].map((n) => `${rel}.~${n}~`));
    // a new month starts a new archive
    month = new Date("2026-06-01T00:00:01Z");
    await runWorkspaceTool(ws(), "apply_patch", { path: rel, hunks: [{ start_line: 1, end_line: 1, replacement: "version five" }] });
    expect(readFileSync(join(extract(join(root, `archive/2026/06/${rel}.tar.zst`)), `${rel}.~1~`), "utf8")).toBe("version four\n");
    expect(readFileSync(join(root, rel), "utf8")).toBe("version five\n");
    expect(verifyLedger(readFileSync(join(root, "docs/evidence_ledger.tools.log"))).ok).toBe(true);
  });

  it("appending a version keeps every earlier member byte for byte", async () => {
    const root = tempRepo({ "a.md": "0\n" });
    const ws = openWorkspace(root, { now: () => new Date("2026-01-15T00:00:00Z") });
    const zstd = await loadZstd();
    let previous: Uint8Array | null = null;
    for (let i = 1; i <= 5; i++) {
      await runWorkspaceTool(ws, "edit_file", { path: "a.md", contents: `${i}\n` });
      const tar = zstd.decompress(readFileSync(join(root, "archive/2026/01/a.md.tar.zst")));
      const { members, end } = tarMembers(tar);
      expect(members.map((m) => m.name)).toEqual(Array.from({ length: i }, (_, k) => `a.md.~${k + 1}~`));
      if (previous !== null) {
        const prevEnd = tarMembers(previous).end;
        expect(Buffer.from(tar.subarray(0, prevEnd))).toEqual(Buffer.from(previous.subarray(0, prevEnd)));
      }
      expect(tar.length).toBe(end + 1024);
      previous = tar;
    }
  });

  it("an unchanged write archives nothing; a new file has nothing to archive", async () => {
    const root = tempRepo({ "a.md": "same\n" });
    const ws = openWorkspace(root);
    expect((await runWorkspaceTool(ws, "edit_file", { path: "a.md", contents: "same\n" })).body).toMatchObject({ unchanged: true, bytes_written: 5 });
    expect((await runWorkspaceTool(ws, "edit_file", { path: "new/b.md", contents: "b", create_if_missing: true })).body).toMatchObject({ created: true });
    expect(existsSync(join(root, "archive"))).toBe(false);
  });

  it("an unreadable archive is never rewritten: the overwrite is refused and the file kept", async () => {
    const root = tempRepo({ "a.md": "keep me\n" });
    const ws = openWorkspace(root, { now: () => new Date("2026-03-01T00:00:00Z") });
    mkdirSync(join(root, "archive/2026/03"), { recursive: true });
    writeFileSync(join(root, "archive/2026/03/a.md.tar.zst"), "not zstd at all");
    const r = await runWorkspaceTool(ws, "edit_file", { path: "a.md", contents: "new\n" });
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ success: false, code: "archive_unreadable" });
    expect(readFileSync(join(root, "a.md"), "utf8")).toBe("keep me\n");
    expect(readFileSync(join(root, "archive/2026/03/a.md.tar.zst"), "utf8")).toBe("not zstd at all");
  });

  it("archive list and archive restore (the CLI) find every version and restore one, archiving the current first", async () => {
    const root = tempRepo({ "docs/a.md": "v1\n" });
    const ws = openWorkspace(root);
    for (const v of ["v2\n", "v3\n"]) await runWorkspaceTool(ws, "edit_file", { path: "docs/a.md", contents: v });
    const list = runCli(["archive", "list", "docs/a.md", "--format", "json"], { cwd: root });
    expect(list.code, list.stderr).toBe(0);
    const archives = (JSON.parse(list.stdout).result as { archives: Array<{ members: Array<{ member: string; size: number }> }> }).archives;
    expect(archives).toHaveLength(1);
    expect(archives[0]!.members.map((m) => m.member)).toEqual(["docs/a.md.~1~", "docs/a.md.~2~"]);
    const shown = runCli(["archive", "restore", "a.md", "--number", "1", "--stdout"], { cwd: join(root, "docs") });
    expect(shown).toMatchObject({ code: 0, stdout: "v1\n" });
    const restored = runCli(["archive", "restore", "docs/a.md", "--number", "1"], { cwd: root });
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(root, "docs/a.md"), "utf8")).toBe("v1\n");
    const again = JSON.parse(runCli(["archive", "list", "--format", "json"], { cwd: root }).stdout).result as {
      archives: Array<{ members: Array<{ member: string }> }>;
    };
    expect(again.archives[0]!.members.map((m) => m.member)).toEqual(["docs/a.md.~1~", "docs/a.md.~2~", "docs/a.md.~3~"]);
    const ledger = runCli(["ledger", "verify", "--format", "json"], { cwd: root });
    expect(ledger.code, ledger.stdout).toBe(0);
    expect(readFileSync(join(root, "docs/evidence_ledger.tools.log"), "utf8")).toContain('"action":"archive_restore"');
    expect(runCli(["archive", "restore", "docs/missing.md"], { cwd: root }).code).toBe(2);
    expect(runCli(["archive", "restore", "docs/a.md", "--number", "9"], { cwd: root }).code).toBe(2);
    expect(runCli(["archive", "frobnicate"], { cwd: root }).code).toBe(2);
  });

  it("archive restore brings back the archived mode, also for a file removed since", async () => {
    const root = tempRepo({ "bin/run.sh": "#!/bin/sh\necho v1\n" });
    chmodSync(join(root, "bin/run.sh"), 0o755);
    const ws = openWorkspace(root);
    await runWorkspaceTool(ws, "edit_file", { path: "bin/run.sh", contents: "#!/bin/sh\necho v2\n" });
    expect(statSync(join(root, "bin/run.sh")).mode & 0o777).toBe(0o755);
    unlinkSync(join(root, "bin/run.sh"));
    const restored = runCli(["archive", "restore", "bin/run.sh", "--number", "1"], { cwd: root });
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(root, "bin/run.sh"), "utf8")).toBe("#!/bin/sh\necho v1\n");
    expect(statSync(join(root, "bin/run.sh")).mode & 0o777).toBe(0o755);
  });

  it("an archive folder that cannot be read is an error, not 'no versions'; one that does not exist holds none", async () => {
    const root = tempRepo({ "docs/a.md": "v1\n" });
    expect(await listArchived(openWorkspace(root))).toEqual([]);
    mkdirSync(join(root, "archive/2026"), { recursive: true });
    writeFileSync(join(root, "archive/2026/05"), "a file where a month's folder belongs\n");
    await expect(listArchived(openWorkspace(root))).rejects.toMatchObject({
      code: "archive_unreadable",
      message: "archive/2026/05: the archive folder cannot be read (ENOTDIR)",
    });
    const list = runCli(["archive", "list"], { cwd: root });
    expect(list).toEqual({ code: 2, stdout: "", stderr: "noma-reconcile: archive/2026/05: the archive folder cannot be read (ENOTDIR)\n" });
  });
});

describe("tarMembers", () => {
  it("agrees with modern-tar on archives of random members (property)", async () => {
    const name = fc
      .array(fc.constantFrom("a", "b", "dir/", "é", "x".repeat(60), "-", "."), { minLength: 1, maxLength: 8 })
      .map((p) => p.join("").replace(/\/+$/, "") || "f");
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(name, fc.uint8Array({ maxLength: 1500 })), { minLength: 1, maxLength: 5 }), async (files) => {
        const tar = await packTar(files.map(([n, data], i) => ({ header: { name: `${i}-${n}`, size: data.length, mode: 0o640 }, body: data })));
        const walked = tarMembers(tar);
        const parsed = await unpackTar(tar);
        expect(walked.members.map((m) => m.name)).toEqual(parsed.map((p) => p.header.name));
        walked.members.forEach((m, i) => expect(Buffer.from(tar.subarray(m.dataOffset, m.dataOffset + m.size))).toEqual(Buffer.from(files[i]![1])));
        expect(tar.subarray(walked.end).every((b) => b === 0)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("refuses truncated or corrupted archives", async () => {
    const tar = await packTar([{ header: { name: "a", size: 3 }, body: "abc" }]);
    expect(() => tarMembers(tar.subarray(0, 512))).toThrow(/truncated|past the end/);
    const bad = new Uint8Array(tar);
    bad[10] = 0x41;
    expect(() => tarMembers(bad)).toThrow(/checksum/);
  });
});
