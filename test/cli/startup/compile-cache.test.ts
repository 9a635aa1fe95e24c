/**
 * The compile cache of the hot commands' bodies (src/cli/startup/load-cached-body.ts): the real CLI,
 * spawned, with its cache directory in a temp dir. What a user must be able to count on: the
 * output never depends on the cache; a cache file is written once, atomically, only where
 * nobody else can write; a torn, flipped, foreign or linked file is never given to V8 and is
 * replaced; two commands at once leave one whole file.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it, onTestFinished } from "vitest";
import { compileCacheDir, trustedCacheDir } from "../../../src/cli/startup/compile-cache-dir.js";
import { cacheFileBytes, cachePayload, KEEP_CACHE_FILES } from "../../../src/cli/startup/load-cached-body.js";
import { SHORT_RUN_JIT_MIN_CHARS } from "../../../src/cli/startup/prepare-short-run-jit.js";
import { CLI, runCli } from "../../helpers/run-cli.js";
import { git, tempRepo } from "../../helpers/temp-repo.js";

const DOC = `---\ntitle: Cache\n---\n\n# Cache {id="top"}\n\nSee [[nowhere]].\n\n::claim{id="c1" confidence=0.7}\nA claim.\n::\n\n::plot{dataset="missing" column="a"}\n::\n`;

function cacheDir(): string {
  const base = mkdtempSync(join(tmpdir(), "nr-compile-cache-"));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  return join(base, "cc");
}

const files = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);
/** check's own cache files, and those of its fixes (`--format json` loads them: dist/bodies/check-fixes.cjs, a body of their own). */
const checkFiles = (dir: string): string[] => files(dir).filter((f) => !f.startsWith("check-fixes-"));
const fixesFiles = (dir: string): string[] => files(dir).filter((f) => f.startsWith("check-fixes-"));
const NAME = new RegExp(`^check-[0-9a-f]{16}-${process.version.replaceAll(".", "\\.")}-${process.arch}\\.bin$`);

describe("the compile cache of command bodies", () => {
  it("writes one cache file after the first check, uses it afterwards, and prints the same as without it", () => {
    const repo = tempRepo({ "doc.noma": DOC });
    const dir = cacheDir();
    const env = { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir };
    const off = runCli(["check", "doc.noma", "--format", "json"], {
      cwd: repo,
      env: { NOMA_RECONCILE_COMPILE_CACHE: "0", NOMA_RECONCILE_COMPILE_CACHE_DIR: dir },
    });
    expect(off.code).toBe(1); // findings: the output compared below is not an empty one
    expect(files(dir)).toEqual([]);
    const first = runCli(["check", "doc.noma", "--format", "json"], { cwd: repo, env });
    expect(first).toEqual(off);
    const [name] = checkFiles(dir);
    expect(checkFiles(dir)).toHaveLength(1);
    expect(name).toMatch(NAME);
    const fixes = fixesFiles(dir);
    expect(fixes).toHaveLength(1);
    const file = join(dir, name!);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(cachePayload(readFileSync(file))?.length).toBeGreaterThan(0); // a framed cache holding V8's data
    const before = statSync(file);
    const second = runCli(["check", "doc.noma", "--format", "json"], { cwd: repo, env });
    expect(second).toEqual(off);
    // Accepted by V8: a refused cache would have been replaced (a new file renamed over it).
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(checkFiles(dir)).toEqual([name]);
    expect(fixesFiles(dir)).toEqual(fixes);
  });

  it("replaces a torn, flipped or foreign cache file instead of handing it to V8, and prints the same", () => {
    const repo = tempRepo({ "doc.noma": DOC });
    const dir = cacheDir();
    const env = { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir };
    const expected = runCli(["check", "doc.noma"], { cwd: repo, env });
    const [name] = files(dir);
    const file = join(dir, name!);
    const good = readFileSync(file);
    const payload = cachePayload(good)!;
    const damaged: Array<[string, Buffer]> = [
      ["truncated", good.subarray(0, good.length - 1000)],
      ["one bit flipped in the payload", Buffer.from(good).fill(good[good.length >> 1]! ^ 0x10, good.length >> 1, (good.length >> 1) + 1)],
      ["one bit flipped in the header", Buffer.from(good).fill(good[5]! ^ 0x01, 5, 6)],
      ["empty", Buffer.alloc(0)],
      // A header that vouches for its payload, and a payload that is not V8's: V8's own check refuses it.
      ["foreign payload with a valid header", cacheFileBytes(Buffer.from(payload).fill(0x5a, 0, 64))],
    ];
    for (const [what, bytes] of damaged) {
      writeFileSync(file, bytes, { mode: 0o600 });
      const r = runCli(["check", "doc.noma"], { cwd: repo, env });
      expect(r, what).toEqual(expected);
      const now = readFileSync(file);
      expect(cachePayload(now)?.length, what).toBeGreaterThan(0);
      expect(now.equals(bytes), what).toBe(false);
    }
  });

  it("neither reads nor writes a directory others can write, a linked directory, or through a linked file", () => {
    const repo = tempRepo({ "doc.noma": DOC });
    const expected = runCli(["check", "doc.noma"], { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE: "0" } });

    const open = cacheDir();
    mkdirSync(open, { recursive: true });
    chmodSync(open, 0o777);
    expect(trustedCacheDir(open, false)).toBe(false);
    expect(runCli(["check", "doc.noma"], { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE_DIR: open } })).toEqual(expected);
    expect(files(open)).toEqual([]);

    const real = cacheDir();
    mkdirSync(real, { recursive: true, mode: 0o700 });
    const linkedDir = `${real}-link`;
    symlinkSync(real, linkedDir);
    onTestFinished(() => rmSync(linkedDir, { force: true }));
    expect(runCli(["check", "doc.noma"], { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE_DIR: linkedDir } })).toEqual(expected);
    expect(files(real)).toEqual([]);

    // A cache file that is a link to somewhere else: not followed for reading, and the write
    // replaces the link, never the file it pointed at.
    const dir = cacheDir();
    runCli(["check", "doc.noma"], { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir } });
    const [name] = files(dir);
    const file = join(dir, name!);
    const target = join(dir, "..", "elsewhere.bin");
    writeFileSync(target, readFileSync(file));
    const targetBytes = readFileSync(target);
    rmSync(file);
    symlinkSync(target, file);
    expect(runCli(["check", "doc.noma"], { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir } })).toEqual(expected);
    expect(
      statSync(file).isFile() &&
        !readdirSync(dir, { withFileTypes: true })
          .find((d) => d.name === name)!
          .isSymbolicLink(),
    ).toBe(true);
    expect(readFileSync(target).equals(targetBytes)).toBe(true);
  });

  it("runs and exits without a cache where its directory cannot be made (under /proc, a file in the way)", () => {
    const repo = tempRepo({ "doc.noma": DOC });
    const expected = runCli(["check", "doc.noma"], { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE: "0" } });
    const file = join(cacheDir(), "..", "a-file");
    writeFileSync(file, "x");
    const places = [join(file, "cc"), ...(existsSync("/proc/self") ? ["/proc/nr-no-such/cc"] : [])];
    for (const place of places) {
      const r = spawnSync(process.execPath, [CLI, "check", "doc.noma"], {
        cwd: repo,
        encoding: "utf8",
        timeout: 20_000,
        env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", NOMA_RECONCILE_COMPILE_CACHE_DIR: place },
      });
      expect(r.error, place).toBeUndefined(); // not killed by the timeout
      expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }, place).toEqual(expected);
    }
    expect(trustedCacheDir("/proc/nr-no-such/cc", true)).toBe(false);
  });

  it("is off with NOMA_RECONCILE_COMPILE_CACHE=0 or NODE_DISABLE_COMPILE_CACHE=1", () => {
    const repo = tempRepo({ "doc.noma": DOC });
    for (const off of [{ NOMA_RECONCILE_COMPILE_CACHE: "0" }, { NODE_DISABLE_COMPILE_CACHE: "1" }]) {
      const dir = cacheDir();
      expect(runCli(["check", "doc.noma"], { cwd: repo, env: { ...off, NOMA_RECONCILE_COMPILE_CACHE_DIR: dir } }).code).toBe(1);
      expect(files(dir)).toEqual([]);
    }
  });

  it("serves the pre-commit hook's check --staged from check's cache, printing the same as without it", () => {
    const repo = tempRepo({ "a.noma": "# A\n" });
    writeFileSync(join(repo, "doc.noma"), DOC);
    git(repo, ["add", "doc.noma"]);
    const dir = cacheDir();
    const env = { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir };
    const expected = runCli(["check", "--staged"], { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE: "0" } });
    expect(expected.code).toBe(1);
    expect(runCli(["check", "--staged"], { cwd: repo, env })).toEqual(expected);
    expect(files(dir)).toHaveLength(1);
    expect(files(dir)[0]).toMatch(NAME);
    const before = statSync(join(dir, files(dir)[0]!)).ino;
    expect(runCli(["check", "--staged"], { cwd: repo, env })).toEqual(expected);
    expect(runCli(["check", "doc.noma"], { cwd: repo, env }).code).toBe(1);
    expect(statSync(join(dir, files(dir)[0]!)).ino).toBe(before);
  });

  it("keeps a separate cache for large documents (the short-run V8 flag set before compiling) and patch's own", () => {
    const parts = [DOC];
    while (parts.join("").length < SHORT_RUN_JIT_MIN_CHARS + 1000)
      parts.push(`\n## Part ${parts.length} {id="p${parts.length}"}\n\n::claim{id="k${parts.length}" confidence=0.5}\nMore.\n::\n`);
    const repo = tempRepo({ "big.noma": parts.join(""), "doc.noma": DOC });
    const dir = cacheDir();
    const env = { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir };
    const expected = runCli(["check", "big.noma", "--format", "json"], { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE: "0" } });
    expect(runCli(["check", "big.noma", "--format", "json"], { cwd: repo, env })).toEqual(expected);
    const jit = checkFiles(dir).filter((f) => f.endsWith("-jit.bin"));
    expect(jit).toHaveLength(1);
    const before = statSync(join(dir, jit[0]!));
    expect(runCli(["check", "big.noma", "--format", "json"], { cwd: repo, env })).toEqual(expected);
    expect(statSync(join(dir, jit[0]!)).ino).toBe(before.ino);

    const op = JSON.stringify({ op: "update_attribute", id: "c1", key: "confidence", value: 0.9 });
    const patched = runCli(["patch", "doc.noma", "--op", op, "--actor-name", "t"], { cwd: repo, env });
    expect(patched.code).toBe(0);
    expect(files(dir).filter((f) => f.startsWith("patch-"))).toHaveLength(1);
    expect(readFileSync(join(repo, "doc.noma"), "utf8")).toContain('::claim{id="c1" confidence=0.9}');
    expect(runCli(["transcript", "verify", "doc.noma"], { cwd: repo, env }).code).toBe(0);
  });

  it("keeps one cache file per set of Node options, so switching between them rewrites nothing", () => {
    const repo = tempRepo({ "doc.noma": DOC });
    const dir = cacheDir();
    const plain = { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir, NODE_OPTIONS: "" };
    const tuned = { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir, NODE_OPTIONS: "--max-old-space-size=2048" };
    const expected = runCli(["check", "doc.noma"], { cwd: repo, env: plain });
    expect(runCli(["check", "doc.noma"], { cwd: repo, env: tuned })).toEqual(expected);
    const names = files(dir);
    expect(names).toHaveLength(2);
    expect(names.filter((n) => /-f[0-9a-f]{12}\.bin$/.test(n))).toHaveLength(1);
    const inodes = names.map((n) => statSync(join(dir, n)).ino);
    for (const env of [plain, tuned, plain]) expect(runCli(["check", "doc.noma"], { cwd: repo, env })).toEqual(expected);
    expect(files(dir).map((n) => statSync(join(dir, n)).ino)).toEqual(inodes);
  });

  it("keeps the newest cache files of a body when it writes one, and touches nothing else", () => {
    const repo = tempRepo({ "doc.noma": DOC });
    const dir = cacheDir();
    const env = { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir };
    const expected = runCli(["check", "doc.noma"], { cwd: repo, env });
    const [current] = files(dir);
    // Files of older builds (ten, written one day apart), another body's, a stranger's, and a
    // link named as a cache file that leads out of the directory.
    const old = Array.from({ length: 10 }, (_, k) => `check-${k.toString(16).padStart(16, "0")}-v20.0.${k}-x64${k % 2 === 0 ? "-jit" : ""}.bin`);
    old.forEach((n, k) => {
      writeFileSync(join(dir, n), "old");
      const t = new Date(Date.UTC(2025, 0, 1 + k));
      utimesSync(join(dir, n), t, t);
    });
    const outside = join(dir, "..", "outside.bin");
    writeFileSync(outside, "not a cache");
    const link = "check-ffffffffffffffff-v20.0.0-x64.bin";
    symlinkSync(outside, join(dir, link));
    writeFileSync(join(dir, "patch-0000000000000000-v20.0.0-x64.bin"), "patch's");
    writeFileSync(join(dir, "notes.txt"), "mine");
    // Runs that read the cache write nothing and remove nothing.
    expect(runCli(["check", "doc.noma"], { cwd: repo, env })).toEqual(expected);
    expect(files(dir)).toHaveLength(1 + old.length + 3);
    // A run that writes its file (the current one is gone) keeps the newest KEEP_CACHE_FILES of check's.
    unlinkSync(join(dir, current!));
    expect(runCli(["check", "doc.noma"], { cwd: repo, env })).toEqual(expected);
    const left = files(dir);
    expect(left).toContain(current);
    expect(left.filter((n) => old.includes(n))).toEqual(old.slice(old.length - (KEEP_CACHE_FILES - 1)).sort());
    expect(left).toEqual(expect.arrayContaining([link, "patch-0000000000000000-v20.0.0-x64.bin", "notes.txt"]));
    expect(lstatSync(join(dir, link)).isSymbolicLink()).toBe(true);
    expect(readFileSync(outside, "utf8")).toBe("not a cache");
  });

  it("runs the command's ES module when its body file is missing from the package", () => {
    const repo = tempRepo({ "doc.noma": DOC });
    const dir = cacheDir();
    const pkg = join(dir, "..", "pkg");
    cpSync(join(CLI, ".."), join(pkg, "dist"), { recursive: true });
    rmSync(join(pkg, "dist", "bodies"), { recursive: true });
    const expected = runCli(["check", "doc.noma", "--format", "json"], { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE: "0" } });
    const r = spawnSync(process.execPath, [join(pkg, "dist", "cli.cjs"), "check", "doc.noma", "--format", "json"], {
      cwd: repo,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", NOMA_RECONCILE_COMPILE_CACHE_DIR: dir },
    });
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual(expected);
    expect(files(dir)).toEqual([]);
  });

  it("leaves one whole cache file when several commands write it at once", async () => {
    const repo = tempRepo({ "doc.noma": DOC });
    const dir = cacheDir();
    const runs = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<{ code: number | null; out: string }>((resolve) => {
            const child = spawn(process.execPath, [CLI, "check", "doc.noma"], {
              cwd: repo,
              env: { ...process.env, NO_COLOR: "1", NOMA_RECONCILE_COMPILE_CACHE_DIR: dir },
            });
            let out = "";
            child.stdout.on("data", (d: Buffer) => (out += d.toString()));
            child.on("close", (code) => resolve({ code, out }));
          }),
      ),
    );
    expect(new Set(runs.map((r) => `${r.code}\n${r.out}`)).size).toBe(1);
    expect(runs[0]!.code).toBe(1);
    const left = files(dir);
    expect(left).toHaveLength(1); // no temp files left behind
    expect(cachePayload(readFileSync(join(dir, left[0]!)))?.length).toBeGreaterThan(0);
  });
});

describe("cache file framing", () => {
  // A dozen CLI runs: on a loaded 2-core machine that can pass the default 60 s.
  it("`changed` from its body answers as its module does; a run that set the WASM flag for SQLite writes no cache V8 would refuse", {
    timeout: 240_000,
  }, () => {
    const spec =
      'schema_version: "0.7"\nintent: All.\nbehaviors:\n  - name: all\n    given: a change\n    then: reconciled\nartifacts:\n  code:\n    - path: "src/**"\n';
    const repo = tempRepo({ ".notarai/all.spec.yaml": spec, "src/a.ts": "a\n", "src/b.ts": "b\n", "src/gone.ts": "g\n" });
    const dir = cacheDir();
    const on = { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir };
    const off = { NOMA_RECONCILE_COMPILE_CACHE: "0", NOMA_RECONCILE_COMPILE_CACHE_DIR: dir };
    const args = ["changed", "--spec", ".notarai/all.spec.yaml", "--format", "json"];
    const changedName = new RegExp(`^changed-[0-9a-f]{16}-${process.version.replaceAll(".", "\\.")}-${process.arch}\\.bin$`);
    expect(runCli(["mark-reconciled", "--all"], { cwd: repo, env: off }).code).toBe(0);
    // A deleted file's record is dead: this run rewrites the DB through sql.js, after the short-run
    // WASM flag (--liftoff-only) is set; code cached after a flag change is refused by V8 in the next
    // process, so none is written.
    // (No file is edited before the cache is made: an edited file is re-hashed, and its signature
    // remembered — a write — once it is 2 s old, which would make the runs below depend on the clock.)
    rmSync(join(repo, "src/gone.ts"));
    const first = runCli(args, { cwd: repo, env: on });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).result.changed_artifacts).toEqual([]);
    expect(runCli(args, { cwd: repo, env: off })).toEqual(first);
    expect(files(dir)).toEqual([]);
    // Nothing left to write: no flag, and the body's code is cached once; later runs use it.
    const second = runCli(args, { cwd: repo, env: on });
    expect(second).toEqual(first);
    const [name] = files(dir);
    expect(files(dir)).toHaveLength(1);
    expect(name).toMatch(changedName);
    const before = statSync(join(dir, name!));
    const third = runCli(args, { cwd: repo, env: on });
    const module = runCli(args, { cwd: repo, env: off });
    expect(third).toEqual(first);
    expect(module).toEqual(first);
    const after = statSync(join(dir, name!));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]); // accepted by V8, not replaced
    // Edits after the cache was made, text output, a category filter: the same answers either way.
    writeFileSync(join(repo, "src/a.ts"), "a2\n");
    writeFileSync(join(repo, "src/new.ts"), "n\n");
    for (const extra of [[], ["--type", "code"]]) {
      const text = ["changed", "--spec", ".notarai/all.spec.yaml", ...extra];
      const viaBody = runCli(text, { cwd: repo, env: on });
      expect(viaBody).toEqual(runCli(text, { cwd: repo, env: off }));
      expect(viaBody.stdout).toBe("src/a.ts\nsrc/new.ts\n");
    }
  });

  it("answers the payload it framed, and nothing for any truncation or flipped bit", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), fc.integer({ min: 0, max: 7 }), (payload, at, bit) => {
        const file = cacheFileBytes(payload);
        expect(Buffer.from(cachePayload(file)!).equals(Buffer.from(payload))).toBe(true);
        const flipped = Buffer.from(file);
        const i = at % flipped.length;
        flipped[i] = flipped[i]! ^ (1 << bit);
        expect(cachePayload(flipped)).toBeUndefined();
        expect(cachePayload(file.subarray(0, at % file.length))).toBeUndefined();
      }),
    );
  });

  it("reads a framed payload wherever it sits in memory", () => {
    const file = cacheFileBytes(Buffer.from("a payload"));
    const shifted = Buffer.alloc(file.length + 3);
    file.copy(shifted, 3);
    expect(cachePayload(shifted.subarray(3))?.toString()).toBe("a payload");
  });

  it("finds its directory from the environment, and none without a home", () => {
    expect(compileCacheDir({ NOMA_RECONCILE_COMPILE_CACHE_DIR: "/x/y" })).toBe("/x/y");
    expect(compileCacheDir({ XDG_CACHE_HOME: "/c", HOME: "/h" }, "linux")).toBe("/c/noma-reconcile/compile-cache");
    expect(compileCacheDir({ XDG_CACHE_HOME: "relative", HOME: "/h" }, "linux")).toBe("/h/.cache/noma-reconcile/compile-cache");
    expect(compileCacheDir({}, "linux")).toBeUndefined();
    expect(compileCacheDir({ HOME: "/h", NOMA_RECONCILE_COMPILE_CACHE: "0" }, "linux")).toBeUndefined();
    expect(compileCacheDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32")).toContain("noma-reconcile");
  });
});
