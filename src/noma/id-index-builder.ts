/**
 * Canonical ids and aliases (§2.1, §2.2), from the sections and directives of a
 * document in walk order. One set of rules for both forms of a parse: handles
 * are node objects or block-table rows.
 *
 * - A section's id is its explicit `{id="…"}` (a non-empty string), else its
 *   title's slug; top-level slugs take collision suffixes (`a`, `a-2`, …),
 *   headings inside directives do not.
 * - A directive's id is its `id` attribute when that is a non-empty string.
 * - The root section (the first top-level H1) also takes the root aliases
 *   (frontmatter `aliases:`, then the book chapter's filename slug).
 * - The first node carrying an id owns it; later ones are duplicates. The first
 *   registration of an alias wins.
 */
import type { AttrValue, ParseProblem } from "./ast.js";
import { IdTable, presized } from "./id-table.js";
import { keepShape } from "./keep-shape.js";
import { slugify, SlugSuffixer } from "./slugify.js";

export class IdIndexBuilder<H> {
  /** Every id registered, in walk order (duplicates too): entries [0, idCount) until `finish`. */
  readonly ids: string[];
  idCount = 0;
  /** Canonical id → the first handle carrying it. */
  readonly byId: IdTable<H>;
  readonly duplicates = new Map<string, H[]>();
  readonly aliasesById = new Map<string, string[]>();
  readonly aliasMap = new Map<string, string>();
  /** The root section, once seen, and whether it had an id. */
  root: H | undefined;
  private rootHasId = false;
  private readonly suffixer = new SlugSuffixer();

  constructor(
    /** Frontmatter aliases (only they are reported as unattached when there is no root). */
    private readonly frontmatterAliases: readonly string[],
    /** Every alias the root section takes: the frontmatter's, then the extra ones. */
    readonly rootAliases: readonly string[],
    /** How many ids to expect (the table is sized for them). */
    expected = 8,
  ) {
    this.byId = new IdTable<H>(expected);
    this.ids = presized(expected);
  }

  /** Cut `ids` to the ids registered (call once, after the last `register`). */
  finish(): void {
    this.ids.length = this.idCount;
  }

  /** The id a section's `id` attribute gives it (a non-empty string), else undefined: its title decides (`slugId`). */
  static explicitId(value: AttrValue | undefined): string | undefined {
    return typeof value === "string" && value.length > 0 ? value : undefined;
  }

  /** The id of a section without an explicit one, from its title. */
  slugId(title: string, nested: boolean): string | undefined {
    const slug = slugify(title);
    if (slug.length === 0) return undefined;
    return nested ? slug : this.suffixer.assign(slug);
  }

  /** Is this section the root (the first top-level H1)? Call once per section, in walk order. */
  claimsRoot(h: H, depth: number, nested: boolean, id: string | undefined): boolean {
    if (nested || depth !== 1 || this.root !== undefined) return false;
    this.root = h;
    this.rootHasId = id !== undefined;
    return true;
  }

  /** `own` with the root aliases it does not hold yet appended. */
  withRootAliases(own: readonly string[]): readonly string[] {
    if (this.rootAliases.length === 0) return own;
    return [...own, ...this.rootAliases.filter((a) => !own.includes(a))];
  }

  register(h: H, id: string | undefined, aliases: readonly string[]): void {
    if (id === undefined) return;
    this.ids[this.idCount++] = id;
    const first = this.byId.add(id, h);
    if (first !== undefined) {
      const dups = this.duplicates.get(id);
      if (dups === undefined) this.duplicates.set(id, [first, h]);
      else dups.push(h);
    }
    if (aliases.length > 0) {
      const list = this.aliasesById.get(id);
      if (list === undefined) this.aliasesById.set(id, [...aliases]);
      else for (const a of aliases) if (!list.includes(a)) list.push(a);
      for (const a of aliases) if (!this.aliasMap.has(a)) this.aliasMap.set(a, id);
    }
  }

  /** The warning when root aliases have nowhere to go (`rootLine`: the root section's line). */
  unattached(rootLine: number | undefined): ParseProblem | undefined {
    if (this.root === undefined && this.frontmatterAliases.length > 0) {
      return {
        severity: "warning",
        code: "frontmatter-aliases-unattached",
        message: `Frontmatter aliases (${this.frontmatterAliases.join(", ")}) are ignored: the document has no top-level "# " heading to attach them to.`,
        line: 1,
        column: 1,
      };
    }
    if (this.root !== undefined && !this.rootHasId && this.rootAliases.length > 0) {
      return {
        severity: "warning",
        code: "frontmatter-aliases-unattached",
        message: `Aliases (${this.rootAliases.join(", ")}) are ignored: the first top-level heading has no id (its title gives an empty slug).`,
        line: rootLine ?? 1,
        column: 1,
      };
    }
    return undefined;
  }
}

keepShape(new IdIndexBuilder<number>([], []));
