// Make the published type declarations (dist/types) self-contained. The package installs with
// no dependencies (its runtime code is bundled, docs/install.md), but the library's types name
// types of packages it bundled (zod's schemas, sql.js's Database): a consumer's TypeScript would
// find no `zod` to resolve `import("zod/mini")` against. So, after tsc:
//
// 1. only the declarations the package's `types` entry reaches are kept (the others describe
//    modules no importer can reach: the package exports only its entry point);
// 2. every other package they name is copied in, declarations only — the files its own
//    declarations reach from the one TypeScript resolves, with its package.json (name,
//    version, module type) and licence — under dist/types/_deps/<package>/, and every
//    specifier naming it is rewritten to a relative path (a `/// <reference types>` to a
//    `/// <reference path>`). Node's own modules (`node:fs`, …) are left to the consumer's
//    @types/node, as for any library for Node.
//
// test/install/packed-tarball.test.ts type-checks a consumer of the installed package with
// `skipLibCheck` off.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, posix, relative, sep } from "node:path";

const BUILTINS = new Set(builtinModules);
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bexport\s*\*\s*from\s*)(["'])([^"']+)\2/g;
const REFERENCE = /^(\/\/\/\s*<reference\s+)(types|path)=(["'])([^"']+)\3(\s*\/>)/gm;

const toPosix = (p) => p.split(sep).join("/");

/** The declaration file a relative specifier names, as TypeScript maps it (`./x.js` → `./x.d.ts`, `./x.cjs` → `./x.d.cts`). */
function declarationOf(fromFile, spec) {
  const base = join(dirname(fromFile), spec);
  const candidates = /\.c?js$|\.mjs$/.test(spec)
    ? [
        base
          .replace(/\.js$/, ".d.ts")
          .replace(/\.cjs$/, ".d.cts")
          .replace(/\.mjs$/, ".d.mts"),
      ]
    : [`${base}.d.ts`, join(base, "index.d.ts"), base];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** The specifier that names `file` (a declaration file) from `fromFile`, with the extension TypeScript maps back. */
function specifierFor(fromFile, file) {
  let rel = toPosix(relative(dirname(fromFile), file))
    .replace(/\.d\.ts$/, ".js")
    .replace(/\.d\.cts$/, ".cjs")
    .replace(/\.d\.mts$/, ".mjs");
  if (!rel.startsWith(".")) rel = `./${rel}`;
  return rel;
}

/** The root directory of the installed package holding `file` (…/node_modules/<name> or …/node_modules/@scope/<name>). */
function packageRootOf(file) {
  const parts = toPosix(file).split("/");
  const at = parts.lastIndexOf("node_modules");
  return parts.slice(0, at + (parts[at + 1].startsWith("@") ? 3 : 2)).join("/");
}

export function vendorTypes(root, typesDir, entry = "index.d.ts") {
  const ts = createRequire(join(root, "package.json"))("typescript");
  const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  const depsDir = join(typesDir, "_deps");
  /** Source declaration file → where it goes in dist/types (ours stay where they are). */
  const placed = new Map();
  const queue = [];
  const place = (file, target) => {
    if (!placed.has(file)) {
      placed.set(file, target);
      queue.push(file);
    }
    return placed.get(file);
  };
  /** A file of a package we copy in: its place under _deps/, and the package's own files once. */
  const placeForeign = (file) => {
    const pkgRoot = packageRootOf(file);
    const pkg = JSON.parse(readFileSync(join(pkgRoot, "package.json"), "utf8"));
    const dest = join(depsDir, pkg.name);
    if (!existsSync(join(dest, "package.json"))) {
      mkdirSync(dest, { recursive: true });
      const meta = { name: pkg.name, version: pkg.version, license: pkg.license, ...(pkg.type !== undefined ? { type: pkg.type } : {}) };
      writeFileSync(join(dest, "package.json"), `${JSON.stringify(meta, null, 2)}\n`);
      const licence = readdirSync(pkgRoot).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
      if (licence === undefined) throw new Error(`${pkgRoot}: no licence file to ship with its declarations`);
      copyFileSync(join(pkgRoot, licence), join(dest, licence));
    }
    return place(file, join(dest, relative(pkgRoot, file)));
  };

  rmSync(depsDir, { recursive: true, force: true });
  place(join(typesDir, entry), join(typesDir, entry));
  const out = new Map();
  while (queue.length > 0) {
    const file = queue.shift();
    const target = placed.get(file);
    const ours = !toPosix(file).includes("/node_modules/");
    let text = readFileSync(file, "utf8");
    text = text.replace(SPECIFIER, (all, lead, quote, spec) => {
      if (spec.startsWith("node:") || BUILTINS.has(spec)) return all;
      let dep;
      if (spec.startsWith(".")) {
        const d = declarationOf(file, spec);
        if (d === null) throw new Error(`${file}: no declaration file for ${spec}`);
        dep = ours ? place(d, d) : placeForeign(d);
      } else {
        const r = ts.resolveModuleName(spec, file, options, ts.sys).resolvedModule;
        if (r === undefined || !r.resolvedFileName.includes("/node_modules/")) throw new Error(`${file}: cannot resolve the types of ${spec}`);
        dep = placeForeign(r.resolvedFileName);
      }
      return `${lead}${quote}${specifierFor(target, dep)}${quote}`;
    });
    text = text.replace(REFERENCE, (all, lead, kind, quote, name, end) => {
      let dep;
      if (kind === "path") {
        const d = join(dirname(file), name);
        dep = ours ? place(d, d) : placeForeign(d);
      } else {
        if (name === "node") return all;
        const r = ts.resolveTypeReferenceDirective(name, file, options, ts.sys).resolvedTypeReferenceDirective;
        if (r?.resolvedFileName === undefined) throw new Error(`${file}: cannot resolve the type reference ${name}`);
        dep = placeForeign(r.resolvedFileName);
      }
      return `${lead}path=${quote}${posix.normalize(toPosix(relative(dirname(target), dep)))}${quote}${end}`;
    });
    out.set(target, text);
  }
  // Ours that no importer reaches are dropped; the reached ones, and the copied ones, written.
  const keep = new Set(out.keys());
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (p !== depsDir) walk(p);
      } else if (!keep.has(p)) rmSync(p);
    }
    if (dir !== typesDir && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
  };
  walk(typesDir);
  for (const [target, text] of out) {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return { files: out.size, packages: existsSync(depsDir) ? readdirSync(depsDir, { recursive: true }).filter((f) => f.endsWith("package.json")).length : 0 };
}
