/**
 * The unified diff git would print for a new file, built from its bytes.
 * Untracked files are not in `git diff`; rather than touching the index
 * (`git add -N`) we render their "new file" diff here.
 */
import { createHash } from "node:crypto";

/** Quote a path the way git does in diff headers when it has special bytes (core.quotePath default). */
export function quoteGitPath(prefix: string, path: string): string {
  const full = prefix + path;
  const bytes = Buffer.from(full, "utf8");
  let needs = false;
  for (const b of bytes) if (b < 0x20 || b === 0x22 || b === 0x5c || b >= 0x7f) needs = true;
  if (!needs) return full;
  let s = '"';
  for (const b of bytes) {
    if (b === 0x22) s += '\\"';
    else if (b === 0x5c) s += "\\\\";
    else if (b === 0x07) s += "\\a";
    else if (b === 0x08) s += "\\b";
    else if (b === 0x09) s += "\\t";
    else if (b === 0x0a) s += "\\n";
    else if (b === 0x0b) s += "\\v";
    else if (b === 0x0c) s += "\\f";
    else if (b === 0x0d) s += "\\r";
    else if (b < 0x20 || b >= 0x7f) s += `\\${b.toString(8).padStart(3, "0")}`;
    else s += String.fromCharCode(b);
  }
  return `${s}"`;
}

/** Git's object id of a blob with these bytes (SHA-1, or SHA-256 for `sha256` repositories). */
export function gitBlobId(bytes: Uint8Array, algorithm: "sha1" | "sha256" = "sha1"): string {
  return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** The `diff --git` text of a new text file (`executable` picks mode 100755). */
export function newFileDiff(path: string, bytes: Uint8Array, executable = false): string {
  const a = quoteGitPath("a/", path);
  const b = quoteGitPath("b/", path);
  const id = gitBlobId(bytes).slice(0, 7);
  let out = `diff --git ${a} ${b}\nnew file mode ${executable ? "100755" : "100644"}\nindex 0000000..${id}\n`;
  if (bytes.length === 0) return out;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const endsWithNewline = text.endsWith("\n");
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split("\n");
  // Like git (and for GNU patch), a file name with a space is followed by a tab on the ---/+++ line.
  const tab = path.includes(" ") ? "\t" : "";
  out += `--- /dev/null\n+++ ${b}${tab}\n@@ -0,0 +1${lines.length === 1 ? "" : `,${lines.length}`} @@\n`;
  out += lines.map((l) => `+${l}\n`).join("");
  if (!endsWithNewline) out += "\\ No newline at end of file\n";
  return out;
}
