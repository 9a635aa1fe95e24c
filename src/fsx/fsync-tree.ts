/**
 * Make a directory's contents durable before it is renamed into place: fsync
 * every regular file under it, then every directory (bottom up). A step
 * directory is small (a few files), so this costs a few system calls.
 * `fsyncTreeAsync` issues them all at once (the thread pool runs them side by
 * side, and the file system commits them together): what a step commit uses,
 * since each fsync waits for the disk and a step has half a dozen files.
 */
import { closeSync, fsyncSync, openSync, readdirSync } from "node:fs";
import { open } from "node:fs/promises";
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

async function fsyncPathAsync(p: string): Promise<void> {
  let h;
  try {
    h = await open(p, "r");
  } catch {
    return; // vanished or unreadable: nothing we can make durable
  }
  try {
    await h.sync();
  } catch {
    /* directories cannot be fsynced on every platform */
  } finally {
    await h.close();
  }
}

function treePaths(dir: string, out: string[]): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) treePaths(p, out);
    else if (e.isFile()) out.push(p);
  }
  out.push(dir);
  return out;
}

/** fsyncTree, every fsync in flight at once; resolves when all are done. */
export async function fsyncTreeAsync(dir: string): Promise<void> {
  await Promise.all(treePaths(dir, []).map(fsyncPathAsync));
}
