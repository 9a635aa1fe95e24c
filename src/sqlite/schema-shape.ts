/**
 * Whether a database's schema is one we create: its tables are ours (by name, each with
 * exactly our columns, in order), and nothing else is in it but indexes on them and SQLite's
 * own tables. A file a user (or a hostile commit, or a broken tool) could have replaced is
 * checked before any of its tables is read or written: a view named like one of our tables
 * (a recursive one never ends), a trigger (it runs on our writes), a virtual table, a table
 * we do not create or one with other columns is not ours.
 *
 * Nothing here reads a row of a table: only `sqlite_master` and the columns SQLite declares.
 */
import type { Database } from "sql.js";

/** One row of `sqlite_master`. */
export interface SchemaObject {
  type: string;
  name: string;
  /** The table an index or trigger belongs to (the object's own name for a table or view). */
  table: string;
  sql: string;
}

/** Our tables: name → the column lists we create for it (more than one when an older schema had other columns). */
export type TableShapes = ReadonlyMap<string, ReadonlyArray<readonly string[]>>;

/** A column as SQLite declares it: its name, and whether it is hidden or generated (`table_xinfo`'s `hidden` not 0). */
export interface DeclaredColumn {
  name: string;
  hidden: boolean;
}

const VIRTUAL = /^\s*CREATE\s+VIRTUAL\s+TABLE\b/i;

/**
 * Why `objects` are not a schema of `tables`, in words for a message, or null when they are.
 * `columnsOf` gives a table's declared columns (asked only for tables we know, never a view).
 */
export function schemaShapeProblem(
  objects: readonly SchemaObject[],
  tables: TableShapes,
  columnsOf: (table: string) => readonly DeclaredColumn[],
): string | null {
  for (const o of objects) {
    if (o.type === "table") {
      // sqlite_sequence, sqlite_stat1…: SQLite's own (AUTOINCREMENT, ANALYZE).
      if (o.name.toLowerCase().startsWith("sqlite_")) continue;
      const shapes = tables.get(o.name);
      if (shapes === undefined) return `a table ${JSON.stringify(o.name)} this tool does not create`;
      if (VIRTUAL.test(o.sql)) return `${JSON.stringify(o.name)} is a virtual table`;
      const cols = columnsOf(o.name);
      const hidden = cols.find((c) => c.hidden);
      if (hidden !== undefined) return `table ${JSON.stringify(o.name)} has a hidden or generated column ${JSON.stringify(hidden.name)}`;
      const names = cols.map((c) => c.name);
      if (!shapes.some((s) => s.length === names.length && s.every((n, i) => n === names[i])))
        return `table ${JSON.stringify(o.name)} has the columns (${names.join(", ")}), not (${shapes[0]!.join(", ")})`;
    } else if (o.type === "index") {
      if (!tables.has(o.table)) return `an index ${JSON.stringify(o.name)} on ${JSON.stringify(o.table)}, a table this tool does not create`;
    } else {
      const what = o.type === "view" || o.type === "trigger" ? `a ${o.type}` : `an object of type ${JSON.stringify(o.type)}`;
      return `${what} named ${JSON.stringify(o.name)}`;
    }
  }
  return null;
}

/** The schema objects of an open database. */
export function schemaObjects(db: Database): SchemaObject[] {
  const res = db.exec("SELECT type, name, tbl_name, sql FROM sqlite_master");
  return (res[0]?.values ?? []).map(([type, name, table, sql]) => ({
    type: String(type),
    name: String(name),
    table: String(table),
    sql: typeof sql === "string" ? sql : "",
  }));
}

/** A table's declared columns, in order. */
export function declaredColumns(db: Database, table: string): DeclaredColumn[] {
  const res = db.exec("SELECT name, hidden FROM pragma_table_xinfo(?)", [table]);
  return (res[0]?.values ?? []).map(([name, hidden]) => ({ name: String(name), hidden: Number(hidden) !== 0 }));
}

/** `schemaShapeProblem` of an open database (through sql.js). */
export function sqlJsSchemaShapeProblem(db: Database, tables: TableShapes): string | null {
  return schemaShapeProblem(schemaObjects(db), tables, (t) => declaredColumns(db, t));
}
