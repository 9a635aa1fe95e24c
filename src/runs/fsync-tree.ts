/**
 * Make a directory's contents durable before it is renamed into place: fsync
 * every regular file under it, then every directory (bottom up). A step
 * directory is small (a few files), so this costs a few system calls.
 */
import { closeSync, fsyncSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";

function fsyncPath(p: string): void {
  let fd: number;
  try {
    fd = openSync(p, "r");
  } catch {
    return; // vanished or unreadable: nothing we can make durable
  }
  try {
    fsyncSync(fd);
  } catch {
    /* directories cannot be fsynced on every platform */
  } finally {
    closeSync(fd);
  }
}

export function fsyncTree(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) fsyncTree(p);
    else if (e.isFile()) fsyncPath(p);
  }
  fsyncPath(dir);
}

export function fsyncDir(dir: string): void {
  fsyncPath(dir);
}
