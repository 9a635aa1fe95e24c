/**
 * Texts of files as they are on disk, read again only when a file's size or modification
 * time changes. A long-lived server reads the same chapters and specs on every keystroke of a
 * chapter (a link looked up in its book): the same string each time, so lookups keyed by text
 * (book-names.ts) hash it once.
 */
import { statSync } from "node:fs";
import { readTextFile } from "../fsx/read-text-file.js";

interface Entry {
  size: number;
  mtimeMs: number;
  text: string;
}

export class DiskTexts {
  private readonly entries = new Map<string, Entry>();

  /** The text of the regular file at `abs`, or null when there is none (or it cannot be read). */
  read(abs: string): string | null {
    let size: number;
    let mtimeMs: number;
    try {
      const st = statSync(abs);
      if (!st.isFile()) {
        this.entries.delete(abs);
        return null;
      }
      size = st.size;
      mtimeMs = st.mtimeMs;
    } catch {
      this.entries.delete(abs);
      return null;
    }
    const hit = this.entries.get(abs);
    if (hit !== undefined && hit.size === size && hit.mtimeMs === mtimeMs) return hit.text;
    let text: string;
    try {
      text = readTextFile(abs);
    } catch {
      return null;
    }
    this.entries.set(abs, { size, mtimeMs, text });
    return text;
  }

  /** Forget a file (it was written by this process, or the editor says it changed). */
  forget(abs: string): void {
    this.entries.delete(abs);
  }
}
