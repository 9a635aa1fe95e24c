import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";

/**
 * realpath of `p`, or — for a path that does not (fully) exist yet — of its nearest existing
 * ancestor joined with the rest. A dangling symbolic link is followed to where its target
 * would be (a link to a missing file outside the repository is outside: writing through it
 * would create that file there). Link chains are followed up to 40 hops (the kernel's limit).
 */
export function realpathLenient(p: string, hops = 0): string {
  try {
    return realpathSync.native(p);
  } catch {
    /* not there (yet), a dangling link, or a loop */
  }
  if (hops < 40) {
    let target: string | undefined;
    try {
      if (lstatSync(p).isSymbolicLink()) target = readlinkSync(p);
    } catch {
      target = undefined;
    }
    if (target !== undefined) return realpathLenient(resolve(realpathLenient(dirname(p), hops + 1), target), hops + 1);
  }
  const parent = dirname(p);
  if (parent === p) return p;
  return resolve(realpathLenient(parent, hops), basename(p));
}
