/**
 * Output written to the descriptors directly (src/cli/startup/fd-stdio.ts) against the slow
 * path it stands in for, Node's process.stdout / process.stderr: the same bytes, and the same
 * answer to "is it a terminal". In process on real descriptors (a file, a FIFO, /dev/null),
 * and through the real CLI with its output to a file, a shell pipe and a socket.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isatty } from "node:tty";
import fc from "fast-check";
import { describe, expect, it, onTestFinished } from "vitest";
import { deviceMajor, fdWriter, isTerminalFd, writesDirectly } from "../../../src/cli/startup/fd-stdio.js";
import { renderNoma } from "../../../src/noma/render-noma.js";
import { parseNoma } from "../../../src/noma/parse-noma.js";
import { CLI } from "../../helpers/run-cli.js";

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "nr-fd-stdio-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A stream stand-in that records what reaches it (the path taken when the descriptor is not written directly). */
function recorder(): { stream: () => NodeJS.WritableStream; got: Buffer[] } {
  const got: Buffer[] = [];
  const sink = { write: (chunk: string | Uint8Array) => got.push(Buffer.from(chunk)) };
  return { stream: () => sink as unknown as NodeJS.WritableStream, got };
}

/** Every chunk written through `fdWriter` to a new `file`; returns what reached the stream stand-in. */
function writeThroughFd(file: string, chunks: readonly string[]): Buffer[] {
  const fd = openSync(file, "w");
  const { stream, got } = recorder();
  try {
    const write = fdWriter(fd, stream);
    for (const c of chunks) write(c);
  } finally {
    closeSync(fd);
  }
  return got;
}

describe("fdWriter", () => {
  it("writes a file exactly the UTF-8 bytes of every chunk, in order, and never touches the stream", () => {
    const dir = tempDir();
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", maxLength: 2000 }), { maxLength: 12 }), (chunks) => {
        const file = join(dir, "out");
        const got = writeThroughFd(file, chunks);
        // Each chunk encoded on its own, as the stream encodes each write: a surrogate pair split
        // across two writes is two lone halves (two U+FFFD), not the character joined text would give.
        expect(readFileSync(file).equals(Buffer.concat(chunks.map((c) => Buffer.from(c, "utf8"))))).toBe(true);
        expect(got).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });

  it("encodes each write on its own, as process.stdout does: a surrogate pair split across writes is two replacement characters", () => {
    const dir = tempDir();
    const chunks = ["a\ud83d", "\ude00b", "\ud83d\ude00", "\udc00", "\ud800"];
    const viaStream = join(dir, "stream");
    const fdOut = openSync(viaStream, "w");
    const node = spawnSync(process.execPath, ["-e", `for (const c of ${JSON.stringify(chunks)}) process.stdout.write(c)`], {
      stdio: ["ignore", fdOut, "pipe"],
    });
    closeSync(fdOut);
    expect(node.status).toBe(0);
    const direct = join(dir, "direct");
    const got = writeThroughFd(direct, chunks);
    const expected = Buffer.from("a\ufffd\ufffdb\u{1f600}\ufffd\ufffd", "utf8");
    expect(readFileSync(viaStream).toString("hex")).toBe(expected.toString("hex"));
    expect(readFileSync(direct).toString("hex")).toBe(expected.toString("hex"));
    expect(got).toEqual([]);
  });

  it("hands everything to the stream when the descriptor is not one it writes directly", () => {
    const { stream, got } = recorder();
    const write = fdWriter(-1, stream);
    write("héllo ");
    write("wörld\n");
    expect(Buffer.concat(got).toString("utf8")).toBe("héllo wörld\n");
  });

  it("hands the rest to the stream after a write that fails (a descriptor closed under it)", () => {
    const dir = tempDir();
    const fd = openSync(join(dir, "out"), "w");
    const { stream, got } = recorder();
    const write = fdWriter(fd, stream);
    write("first\n");
    closeSync(fd);
    write("second\n");
    write("third\n");
    expect(readFileSync(join(dir, "out"), "utf8")).toBe("first\n");
    expect(Buffer.concat(got).toString("utf8")).toBe("second\nthird\n");
  });
});

describe("isTerminalFd and writesDirectly", () => {
  it("answer for a file, a FIFO and /dev/null as the tty module does, and write to each directly", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f"), "");
    expect(spawnSync("mkfifo", [join(dir, "p")]).status).toBe(0);
    for (const [what, path] of [
      ["a file", join(dir, "f")],
      ["a FIFO", join(dir, "p")],
      ["/dev/null", "/dev/null"],
    ] as const) {
      const fd = openSync(path, "r+");
      try {
        expect(isTerminalFd(fd), what).toBe(false);
        expect(isatty(fd), what).toBe(false);
        expect(writesDirectly(fd), what).toBe(true);
      } finally {
        closeSync(fd);
      }
    }
  });

  it("leaves a descriptor fstat cannot read to the stream", () => {
    expect(isTerminalFd(-1)).toBeUndefined();
    expect(writesDirectly(-1)).toBe(false);
  });

  it("reads a device's major number as glibc's gnu_dev_major does", () => {
    expect(deviceMajor(0x103)).toBe(1); // /dev/null: 1, 3
    expect(deviceMajor(0x8800)).toBe(136); // /dev/pts/0
    // glibc's makedev, in BigInt: the major's low 12 bits at 8, its high bits at 32; the minor's low 8 bits at 0, its high bits at 12.
    const makedev = (major: number, minor: number): number =>
      Number(((BigInt(major) & 0xfffn) << 8n) | ((BigInt(major) & ~0xfffn) << 32n) | (BigInt(minor) & 0xffn) | ((BigInt(minor) & ~0xffn) << 12n));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 20 - 1 }), fc.integer({ min: 0, max: 2 ** 20 - 1 }), (major, minor) => {
        expect(deviceMajor(makedev(major, minor))).toBe(major);
      }),
    );
  });
});

describe("the CLI's output, written directly", () => {
  const doc = `# Output {id="top"}\n\nCafé — naïve ✓ text.\n\n${Array.from({ length: 3000 }, (_, k) => `## Part ${k}\n\nLine ${k} ünïcödé.\n`).join("\n")}`;

  it("is the same bytes to a file, a shell pipe and a socket, and the library's rendering", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "doc.noma"), doc);
    const expected = renderNoma(parseNoma(doc));
    const env = { ...process.env, NO_COLOR: "1" };
    // A socket: Node's spawn gives the child one end of a socketpair.
    const socket = spawnSync(process.execPath, [CLI, "render", "doc.noma", "--to", "noma"], { cwd: dir, env, encoding: "utf8", maxBuffer: 1 << 26 });
    expect(socket.status).toBe(0);
    expect(socket.stdout).toBe(expected);
    // A file.
    const fd = openSync(join(dir, "out.noma"), "w");
    const file = spawnSync(process.execPath, [CLI, "render", "doc.noma", "--to", "noma"], { cwd: dir, env, stdio: ["ignore", fd, "pipe"] });
    closeSync(fd);
    expect(file.status).toBe(0);
    expect(readFileSync(join(dir, "out.noma"), "utf8")).toBe(expected);
    // A shell pipe (a FIFO).
    const piped = spawnSync("sh", ["-c", `"${process.execPath}" "${CLI}" render doc.noma --to noma | cat`], {
      cwd: dir,
      env,
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    expect(piped.status).toBe(0);
    expect(piped.stdout).toBe(expected);
  });

  it("prints check's findings and summary the same to a file as to a socket", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.noma"), '# Bad\n\nSee [[nowhere]].\n\n::claim{id="c"}\nx\n');
    const env = { ...process.env, NO_COLOR: "1" };
    const socket = spawnSync(process.execPath, [CLI, "check", "bad.noma"], { cwd: dir, env, encoding: "utf8" });
    const out = openSync(join(dir, "out.txt"), "w");
    const err = openSync(join(dir, "err.txt"), "w");
    const file = spawnSync(process.execPath, [CLI, "check", "bad.noma"], { cwd: dir, env, stdio: ["ignore", out, err] });
    closeSync(out);
    closeSync(err);
    expect(socket.status).toBe(1);
    expect(file.status).toBe(1);
    expect(socket.stdout).toContain("bad.noma:3:");
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe(socket.stdout);
    expect(readFileSync(join(dir, "err.txt"), "utf8")).toBe(socket.stderr);
  });
});
