/**
 * The spec context of the warm path, remembered by content: validating specs
 * needs the YAML parser and the schemas (the largest modules `changed` would
 * load), yet the specs rarely change between runs.
 * The validated set is kept in `.notarai/.cache/specs.json` under a key
 * naming the tool version and every spec file's path and SHA-256; while the
 * files are byte for byte those, the set is taken from there and the
 * validator is not even loaded. Anything else (a changed, added or removed
 * spec, another version, an unreadable or foreign file) loads and validates as
 * usual, and remembers the result when it survives JSON unchanged.
 *
 * The key also names the text of `.notarai/config.yaml` (or its absence), and
 * the set is stored with the audit locations that configuration gives
 * (`workspace.ledger`, `workspace.archive`: files never governed), so the
 * warm path does not load the configuration's parser either.
 */
import { readRegularFile } from "../fsx/read-regular-file.js";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { ensureCacheDir } from "../cache/write-cache.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import { symlinkEscape } from "../fsx/symlink-escape.js";
import { DEFAULT_AUDIT_LOCATIONS, type AuditLocations } from "../governance/audit-paths.js";
import { buildGovernance } from "../governance/governance.js";
import { readConfigText } from "../governance/read-config-text.js";
import { listSpecPaths } from "../governance/list-spec-paths.js";
import type { SpecSet } from "../governance/load-specs.js";
import type { SpecFile } from "../governance/validate-spec-text.js";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";
import { warnSpecProblems, type SpecContext, type ToolOptions } from "./reconcile-context.js";
import { recallSpecSet, rememberSpecSet, specTexts } from "./spec-set-memo.js";

export const SPEC_CACHE_PATH = ".notarai/.cache/specs.json";

interface Stored {
  key: string;
  files: SpecFile[];
  system: string | null;
  audit: AuditLocations;
}

function keyOf(texts: ReadonlyMap<string, string>, config: string | null): string {
  const h = createHash("sha256").update(`${TOOL_NAME} ${TOOL_VERSION}\0`);
  h.update(config === null ? "no-config\0" : `config\0${createHash("sha256").update(config).digest("hex")}\0`);
  for (const [p, t] of texts) h.update(`${p}\0${createHash("sha256").update(t).digest("hex")}\0`);
  return h.digest("hex");
}

const isLocations = (a: unknown): a is AuditLocations =>
  a !== null && typeof a === "object" && typeof (a as AuditLocations).ledger === "string" && typeof (a as AuditLocations).archive === "string";

function fromStored(s: Stored): SpecSet {
  const files = s.files;
  return {
    files,
    byPath: new Map(files.map((f) => [f.path, f])),
    system: files.find((f) => f.path === s.system) ?? null,
    problems: files.flatMap((f) => f.problems),
  };
}

function readStored(root: string, key: string, texts: ReadonlyMap<string, string>): { specs: SpecSet; audit: AuditLocations } | null {
  let s: Stored;
  if (symlinkEscape(root, SPEC_CACHE_PATH) !== null) return null; // never read through a link out of the repository
  try {
    s = JSON.parse(readRegularFile(join(root, SPEC_CACHE_PATH), SPEC_CACHE_PATH).toString("utf8")) as Stored;
  } catch {
    return null;
  }
  if (s === null || typeof s !== "object" || s.key !== key || !Array.isArray(s.files) || s.files.length !== texts.size || !isLocations(s.audit)) return null;
  // The key proves the texts; the stored files must also be those texts, in that order.
  let i = 0;
  for (const [p, t] of texts) {
    const f = s.files[i++];
    if (f === undefined || f.path !== p || f.text !== t || !Array.isArray(f.problems) || !Array.isArray(f.refs)) return null;
  }
  return { specs: fromStored(s), audit: { ledger: s.audit.ledger, archive: s.audit.archive } };
}

/** Load specs and governance as `loadSpecContext` does, from the remembered set when the spec files are unchanged. */
export async function loadSpecContextCached(root: string, options: ToolOptions, known: Iterable<string>): Promise<SpecContext> {
  const list = [...known];
  const texts = specTexts(root, listSpecPaths(root, list));
  const config = readConfigText(root);
  const key = texts !== null ? keyOf(texts, config) : null;
  const stored = key !== null ? readStored(root, key, texts!) : null;
  let specs: SpecSet;
  let audit: AuditLocations | null;
  if (stored !== null) ({ specs, audit } = stored);
  else {
    // The configuration first (an invalid one fails before anything is remembered);
    // not parsed when the caller gave the locations (then the set is not remembered either).
    audit =
      config === null
        ? { ...DEFAULT_AUDIT_LOCATIONS }
        : options.audit !== undefined
          ? null
          : (await import("../governance/read-audit-locations.js")).readAuditLocations(root, config);
    // Validated earlier in this process (spec-set-memo.ts), else now.
    const recalled = texts !== null ? recallSpecSet(texts) : null;
    if (recalled !== null) specs = recalled;
    else {
      const { loadSpecs, specSetOfTexts } = await import("../governance/load-specs.js");
      // The texts just read are validated; read again only when one could not be read as text (its reading reports why).
      specs = texts !== null ? specSetOfTexts(texts) : loadSpecs(root, list);
      if (texts !== null) rememberSpecSet(texts, specs);
    }
    if (key !== null && audit !== null && options.readOnly !== true) remember(root, key, texts!, specs, audit);
  }
  warnSpecProblems(specs, options);
  return { root, specs, governance: buildGovernance(specs, options.audit ?? audit ?? DEFAULT_AUDIT_LOCATIONS) };
}

/** Keep a validated set, if it is of exactly the texts the key names and JSON carries it unchanged. */
function remember(root: string, key: string, texts: ReadonlyMap<string, string>, specs: SpecSet, audit: AuditLocations): void {
  if (specs.files.length !== texts.size || specs.files.some((f) => texts.get(f.path) !== f.text)) return;
  const stored: Stored = { key, files: specs.files, system: specs.system?.path ?? null, audit };
  const json = JSON.stringify(stored);
  try {
    if (!isDeepStrictEqual(JSON.parse(json), stored)) return;
    ensureCacheDir(root);
    writeFileAtomic(join(root, SPEC_CACHE_PATH), json);
  } catch {
    /* a cache that cannot be written only costs the next run a validation */
  }
}
