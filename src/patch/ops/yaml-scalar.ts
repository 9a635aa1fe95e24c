/**
 * Text as a YAML scalar in a dataset body: plain (`financial audit`) whenever a YAML reader
 * reads those characters back as that same text — in a flow collection (`- [a, b]`,
 * `- {k: v}`) and as a block value or key — else quoted. The rule is YAML 1.2's for plain
 * scalars, with the YAML 1.1 forms older readers still resolve (`yes`, `on`, `0b1`, `1_000`,
 * `10:30`, dates) quoted too, so no reader takes the text for a boolean, number or date.
 * Quoted text follows the body's own style (`"…"`, or `'…'` when that is what it uses).
 */

/** How the body writes text that needs no quotes: plain, or always in one kind of quotes. */
export type YamlQuoteStyle = "plain" | "double" | "single";

/** Words that read as null or a boolean (YAML 1.2 core and 1.1), any case. */
const RESERVED = /^(?:true|false|yes|no|on|off|null|y|n|~|=|<<)$/i;
/** Numbers in every form a YAML 1.1 or 1.2 reader resolves: decimal (with `_`), 0x/0o/0b, sexagesimal, .inf, .nan. */
const NUMERIC = [
  /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?$/,
  /^[-+]?0[xob][0-9a-fA-F_]+$/i,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/,
  /^[-+]?\.(?:inf|nan)$/i,
];
/** The start of a timestamp (YAML 1.1 `timestamp`, which some readers still resolve). */
const DATE = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/;
/** Characters that cannot start a plain scalar (indicators), or the space around one. */
const BAD_FIRST = /^[-?:,[\]{}#&*!|>'"%@`\s]/;
/** Anywhere: a flow indicator, a tab, a line break or another control or invisible separator character. */
const BAD_ANY = /[,[\]{}\t\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;

/** Whether `s` may be written as a plain scalar: a YAML reader gives back exactly `s`, as text. */
export function isPlainSafe(s: string): boolean {
  if (s.length === 0 || BAD_FIRST.test(s) || /\s$/.test(s) || BAD_ANY.test(s)) return false;
  // `: ` starts a mapping value, ` #` a comment; a final `:` is a key.
  if (/:(?:\s|$)|\s#/.test(s) || s.startsWith("...")) return false;
  if (RESERVED.test(s) || DATE.test(s) || (/[0-9]/.test(s) && NUMERIC.some((re) => re.test(s)))) return false;
  // A lone surrogate half has no UTF-8 form: quoted (JSON escapes it).
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

/** `s` quoted: `'…'` (a quote doubled) in the single style when it needs no escape, else `"…"` with JSON's escapes. */
export function quoteYaml(s: string, style: YamlQuoteStyle): string {
  if (style === "single" && !BAD_ANY.test(s.replace(/[,[\]{}]/g, ""))) return `'${s.replace(/'/g, "''")}'`;
  return JSON.stringify(s);
}

/** Text as a scalar: plain when it is safe and the body writes text plain, else quoted in the body's style. */
export function yamlText(s: string, style: YamlQuoteStyle): string {
  return style === "plain" && isPlainSafe(s) ? s : quoteYaml(s, style);
}

/**
 * The style of a body's text values, from their written forms (`raws`): plain when any value
 * that is text is written plain (or none is text), else the quotes they use (double when mixed).
 */
export function quoteStyleOf(raws: Iterable<string>): YamlQuoteStyle {
  let double = 0;
  let single = 0;
  for (const raw of raws) {
    if (raw.startsWith('"')) double++;
    else if (raw.startsWith("'")) single++;
    else if (raw.length > 0 && isPlainSafe(raw)) return "plain";
  }
  return double === 0 && single === 0 ? "plain" : single > 0 && double === 0 ? "single" : "double";
}
