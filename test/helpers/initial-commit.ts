/**
 * The initial commit of a test repository written in process: what `git add -A` and
 * `git commit -qm <message>` write in a repository fresh from `git init` with the tests'
 * identity (init-template.ts) holding nothing but `tree` — the loose objects, the index,
 * refs/heads/main, the two reflogs and COMMIT_EDITMSG — without two git processes.
 *
 * Only where that is certain to be what git writes (`initialCommitCovers`): plain path names
 * (no `.git*` file, so no ignore rules, attributes or submodules apply; nothing git would refuse
 * or rename), a one-line message, and a git set up plainly (`plainGitSetup`: no GIT_* variable but the network's, prompts' and pager's,
 * no configuration beyond a list that cannot change what add and commit write, no user-wide ignore
 * or attributes file). Anything else takes git itself. The equivalence test beside it
 * (test/helpers/initial-commit.test.ts) builds generated trees both ways and compares every file
 * of `.git`, the objects by content and the index field by field.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { TEST_COMMIT_DATE } from "./run-git.js";
import { initTemplate } from "./init-template.js";

type Tree = Record<string, string | Buffer>;

const IDENT = "Test <test@example.invalid>";
const WHEN = `${Date.parse(TEST_COMMIT_DATE) / 1000} +0000`;
const ZERO = "0".repeat(40);

/** A path segment git stores as it is, that no ignore rule, attribute or protection touches. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_@+,=\u0080-\uffff-][A-Za-z0-9_@+,=. \u0080-\uffff-]*$/u;

/** Whether `writeInitialCommit(dir, tree, message)` writes what git would. */
export function initialCommitCovers(tree: Tree, message: string): boolean {
  if (!/^[A-Za-z0-9][A-Za-z0-9 ,.:-]*[A-Za-z0-9.]$|^[A-Za-z0-9]$/.test(message)) return false;
  const paths = Object.keys(tree);
  if (paths.length === 0) return false;
  for (const path of paths) {
    for (const segment of path.split("/")) {
      if (!PLAIN_SEGMENT.test(segment) || segment.endsWith(".") || segment.endsWith(" ")) return false;
      if (segment.toLowerCase().startsWith(".git") || segment.toLowerCase().startsWith("git~")) return false;
      if (/[\ud800-\udfff\ufeff\u200b-\u200f\u202a-\u202e\u2060-\u206f]/u.test(segment)) return false;
    }
  }
  // No path both a file and a directory (writeTree would fail on it before git saw it).
  const set = new Set(paths);
  for (const path of paths) {
    for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) if (set.has(path.slice(0, i))) return false;
  }
  return true;
}

/** Configuration that cannot change what `git add -A` and `git commit -qm` write in our repositories. */
const HARMLESS_CONFIG = [
  /^user\.(name|email)$/,
  /^commit\.gpgsign$/,
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|pager|editor)$/,
  /^init\.defaultbranch$/,
  /^safe\.directory$/,
  /^(credential|http|https|url|color|alias|advice|pull|push|fetch|protocol)\./,
];

/** GIT_* variables for the network, prompts and the pager: nothing a local add or commit reads. */
const HARMLESS_ENV = /^GIT_(SSL_[A-Z_]+|HTTP_[A-Z_]+|CURL_VERBOSE|TERMINAL_PROMPT|ASKPASS|PAGER|EDITOR|SSH|SSH_COMMAND|SSH_VARIANT|PROTOCOL_FROM_USER)$/;

let configPlain: { plain: boolean; home: string | undefined; xdg: string | undefined } | undefined;

/**
 * No GIT_* variable that a local add or commit reads, only harmless configuration, no user-wide ignore or
 * attributes file. The configuration and the files are read once per process, the environment at each call.
 */
export function plainGitSetup(): boolean {
  const home = process.env["HOME"];
  const xdg = process.env["XDG_CONFIG_HOME"];
  if (configPlain === undefined) {
    const listing = execFileSync("git", ["config", "--list", "--includes", "-z"], { cwd: initTemplate(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    configPlain = { plain: judgeGitSetup({ HOME: home, XDG_CONFIG_HOME: xdg }, listing, existsSync), home, xdg };
  }
  // A test that points HOME elsewhere for a while gets git's own answer.
  if (home !== configPlain.home || xdg !== configPlain.xdg) return false;
  return configPlain.plain && judgeGitSetup(process.env, "", () => false);
}

/** `plainGitSetup`'s judgement of an environment, `git config --list -z` in a new repository, and the files that exist. */
export function judgeGitSetup(env: NodeJS.ProcessEnv, configListing: string, exists: (path: string) => boolean): boolean {
  if (Object.keys(env).some((k) => k.startsWith("GIT_") && !HARMLESS_ENV.test(k))) return false;
  const xdg = env["XDG_CONFIG_HOME"] || join(env["HOME"] || homedir(), ".config");
  if (exists(join(xdg, "git/ignore")) || exists(join(xdg, "git/attributes"))) return false;
  for (const entry of configListing.split("\0")) {
    if (entry === "") continue;
    const end = entry.indexOf("\n");
    const key = (end === -1 ? entry : entry.slice(0, end)).toLowerCase();
    if (!HARMLESS_CONFIG.some((re) => re.test(key))) return false;
  }
  return true;
}

interface Node {
  files: Map<string, { id: Buffer; path: string }>;
  dirs: Map<string, Node>;
  /** Filled in by writeTrees. */
  id?: Buffer;
  count?: number;
}

const emptyNode = (): Node => ({ files: new Map(), dirs: new Map() });

function writeObject(gitDir: string, type: string, body: Buffer): Buffer {
  const full = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const id = createHash("sha1").update(full).digest();
  const hex = id.toString("hex");
  const dir = join(gitDir, "objects", hex.slice(0, 2));
  const file = join(dir, hex.slice(2));
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, deflateSync(full, { level: 1 }), { mode: 0o444 });
  }
  return id;
}

/** git's order of tree entries: by name, a directory's name as if it ended in `/`. */
function treeOrder(a: [string, boolean], b: [string, boolean]): number {
  return Buffer.compare(Buffer.from(a[1] ? `${a[0]}/` : a[0]), Buffer.from(b[1] ? `${b[0]}/` : b[0]));
}

function writeTrees(gitDir: string, node: Node): Buffer {
  const entries: Array<[string, boolean]> = [
    ...[...node.files.keys()].map((n): [string, boolean] => [n, false]),
    ...[...node.dirs.keys()].map((n): [string, boolean] => [n, true]),
  ];
  entries.sort(treeOrder);
  const parts: Buffer[] = [];
  let count = node.files.size;
  for (const [name, isDir] of entries) {
    if (isDir) {
      const sub = node.dirs.get(name)!;
      const id = writeTrees(gitDir, sub);
      count += sub.count!;
      parts.push(Buffer.from(`40000 ${name}\0`), id);
    } else {
      parts.push(Buffer.from(`100644 ${name}\0`), node.files.get(name)!.id);
    }
  }
  node.id = writeObject(gitDir, "tree", Buffer.concat(parts));
  node.count = count;
  return node.id;
}

/** The index's cache-tree extension: each directory in pre-order, subtrees by name length, then bytes (git's cache-tree.c). */
function cacheTree(name: string, node: Node, out: Buffer[]): void {
  out.push(Buffer.from(`${name}\0${node.count} ${node.dirs.size}\n`), node.id!);
  const subs = [...node.dirs.keys()].map((n) => [n, Buffer.from(n)] as const);
  subs.sort((a, b) => a[1].length - b[1].length || Buffer.compare(a[1], b[1]));
  for (const [n] of subs) cacheTree(n, node.dirs.get(n)!, out);
}

function indexEntry(dir: string, path: string, id: Buffer): Buffer {
  const st = lstatSync(join(dir, path), { bigint: true });
  const name = Buffer.from(path);
  const size = (62 + name.length + 8) & ~7;
  const b = Buffer.alloc(size);
  const u32 = (v: bigint, at: number): void => {
    b.writeUInt32BE(Number(v & 0xffffffffn), at);
  };
  u32(st.ctimeNs / 1_000_000_000n, 0);
  u32(st.ctimeNs % 1_000_000_000n, 4);
  u32(st.mtimeNs / 1_000_000_000n, 8);
  u32(st.mtimeNs % 1_000_000_000n, 12);
  u32(st.dev, 16);
  u32(st.ino, 20);
  b.writeUInt32BE((st.mode & 0o100n) !== 0n ? 0o100755 : 0o100644, 24);
  u32(st.uid, 28);
  u32(st.gid, 32);
  u32(st.size, 36);
  id.copy(b, 40);
  b.writeUInt16BE(Math.min(name.length, 0xfff), 60);
  name.copy(b, 62);
  return b;
}

/**
 * Commit `tree` (already written to `dir`, a repository fresh from the init template) as git's
 * `add -A` + `commit -qm message` with the tests' identity and date would; returns the commit id.
 * Call only where `plainGitSetup()` and `initialCommitCovers(tree, message)` hold.
 */
export function writeInitialCommit(dir: string, tree: Tree, message: string): string {
  const gitDir = join(dir, ".git");
  const root = emptyNode();
  const indexed: Array<{ path: Buffer; entry: Buffer }> = [];
  for (const [path, content] of Object.entries(tree)) {
    const id = writeObject(gitDir, "blob", typeof content === "string" ? Buffer.from(content) : content);
    const segments = path.split("/");
    let node = root;
    for (const s of segments.slice(0, -1)) {
      let next = node.dirs.get(s);
      if (next === undefined) node.dirs.set(s, (next = emptyNode()));
      node = next;
    }
    node.files.set(segments[segments.length - 1]!, { id, path });
    indexed.push({ path: Buffer.from(path), entry: indexEntry(dir, path, id) });
  }
  const treeId = writeTrees(gitDir, root);
  const commit = `tree ${treeId.toString("hex")}\nauthor ${IDENT} ${WHEN}\ncommitter ${IDENT} ${WHEN}\n\n${message}\n`;
  const commitId = writeObject(gitDir, "commit", Buffer.from(commit)).toString("hex");

  indexed.sort((a, b) => Buffer.compare(a.path, b.path));
  const header = Buffer.alloc(12);
  header.write("DIRC", 0, "latin1");
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(indexed.length, 8);
  const ext: Buffer[] = [];
  cacheTree("", root, ext);
  const extBody = Buffer.concat(ext);
  const extHeader = Buffer.alloc(8);
  extHeader.write("TREE", 0, "latin1");
  extHeader.writeUInt32BE(extBody.length, 4);
  const body = Buffer.concat([header, ...indexed.map((e) => e.entry), extHeader, extBody]);
  writeFileSync(join(gitDir, "index"), Buffer.concat([body, createHash("sha1").update(body).digest()]));

  writeFileSync(join(gitDir, "COMMIT_EDITMSG"), `${message}\n`);
  mkdirSync(join(gitDir, "logs/refs/heads"), { recursive: true });
  const log = `${ZERO} ${commitId} ${IDENT} ${WHEN}\tcommit (initial): ${message}\n`;
  writeFileSync(join(gitDir, "logs/refs/heads/main"), log);
  writeFileSync(join(gitDir, "logs/HEAD"), log);
  writeFileSync(join(gitDir, "refs/heads/main"), `${commitId}\n`);
  return commitId;
}
