/**
 * A backtracking matcher over the expression's tree, as V8's engine searches (every choice
 * tried in turn, a look-around answered by its first match and never re-entered), that never
 * stops at a success: it explores every way through the expression, which is what a failing
 * test costs a backtracking engine, and counts the points it reaches. The count is the work
 * backtracking-bound.ts bounds (a model, not V8's timing: tests assert counts, never time).
 */
import type { RegexNode } from "../../../src/governance/glob/regex-syntax.js";

/** How many expression points an exhaustive backtracking search of `tree` over `input` reaches; stops counting past `cap`. */
export function backtrackingWork(tree: RegexNode, input: string, cap = 50_000_000): number {
  let steps = 0;
  const n = input.length;
  const isWord = (i: number): boolean => i >= 0 && i < n && /\w/.test(input[i]!);
  const m = (node: RegexNode, pos: number, k: (p: number) => boolean): boolean => {
    if (++steps > cap) throw new CapReached();
    switch (node.t) {
      case "set":
        return pos < n && node.set.has(input.charCodeAt(pos)) && k(pos + 1);
      case "bol":
        return pos === 0 && k(pos);
      case "eol":
        return pos === n && k(pos);
      case "word-boundary":
        return (isWord(pos - 1) !== isWord(pos)) !== node.negate && k(pos);
      case "look": {
        if (!node.ahead) throw new Error("the model reads no look-behind");
        const found = m(node.body, pos, () => true);
        return found !== node.negate && k(pos);
      }
      case "seq": {
        const from = (idx: number, p: number): boolean => (idx === node.items.length ? k(p) : m(node.items[idx]!, p, (q) => from(idx + 1, q)));
        return from(0, pos);
      }
      case "alt":
        for (const alt of node.alts) if (m(alt, pos, k)) return true;
        return false;
      case "rep": {
        const loop = (count: number, p: number): boolean => {
          if (count >= node.min && k(p)) return true;
          if (count >= node.max) return false;
          // An iteration that reads nothing past the minimum ends the loop (the engine's empty check).
          return m(node.body, p, (q) => (q === p && count >= node.min ? false : loop(count + 1, q)));
        };
        return loop(0, pos);
      }
    }
  };
  try {
    m(tree, 0, () => false);
  } catch (e) {
    if (!(e instanceof CapReached)) throw e;
  }
  return steps;
}

class CapReached extends Error {}

/** The number of nodes of `tree`, look-around bodies included. */
export function treeSize(tree: RegexNode): number {
  switch (tree.t) {
    case "seq":
      return 1 + tree.items.reduce((s, x) => s + treeSize(x), 0);
    case "alt":
      return 1 + tree.alts.reduce((s, x) => s + treeSize(x), 0);
    case "rep":
    case "look":
      return 1 + treeSize(tree.body);
    default:
      return 1;
  }
}
