/**
 * One git process for the index listing and the untracked files:
 * `git ls-files -z -t -s -c -o --exclude-standard` prints the untracked files
 * first, each as `? <path>\0` (tag `?`, no mode, object or stage), then every
 * index entry exactly as `ls-files -z -t -s -c` prints it (`<tag> <mode>
 * <object> <stage>\t<path>\0`, the tag a letter, never `?`). Splitting at the
 * first line not tagged `?` gives back both outputs byte for byte, so every
 * reader of the index listing (`indexOidLength`, `readIndexLine`,
 * `parseIndexListing`, the cache's chunk comparison) reads what it always read.
 * The argv is built here; test/git/split-combined-listing.test.ts compares the
 * split with the two separate processes on generated repositories.
 */
import { GitOutputError } from "./parse-name-status.js";

/** The argv of the combined listing (pathspecs after `--` appended by the caller). */
export const COMBINED_LISTING = ["ls-files", "-z", "-t", "-s", "-c", "-o", "--exclude-standard"];

const QUESTION = 63; // "?"
const SPACE = 32;

export interface SplitListing {
  /** The bytes `ls-files -z -t -s -c` prints (a view of the combined output, not a copy). */
  indexOut: Buffer;
  /** What `ls-files -z -o --exclude-standard` prints, decoded as UTF-8. */
  othersOut: string;
}

/** Split the combined output into the index listing and the untracked files. */
export function splitCombinedListing(out: Buffer): SplitListing {
  const others: Buffer[] = [];
  let pos = 0;
  while (pos < out.length && out[pos] === QUESTION) {
    const end = out.indexOf(0, pos);
    if (out[pos + 1] !== SPACE || end < pos + 3) {
      throw new GitOutputError(`bad ls-files untracked line ${JSON.stringify(out.toString("utf8", pos, end < 0 ? out.length : end))}`);
    }
    others.push(out.subarray(pos + 2, end + 1)); // the path and its NUL
    pos = end + 1;
  }
  return { indexOut: out.subarray(pos), othersOut: Buffer.concat(others).toString("utf8") };
}
