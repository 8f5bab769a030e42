/** Records that declare their format in a `schema` field: reading the current or an earlier format, and writing `schema` first. */
import fs from "node:fs";
import { z } from "zod";
import { writeFileAtomic } from "../core/atomic.js";

/** A format earlier releases wrote, still read and converted to the current record. */
export interface LegacyFormat<T> {
  schema: string;
  /** The legacy record converted, or why it does not match its format. */
  parse(json: unknown): { ok: true; record: T } | { ok: false; error: z.ZodError };
}

/** A legacy format from its zod schema and its conversion; the legacy type stays inside. */
export function legacyFormat<L, T>(schema: string, parser: z.ZodType<L>, convert: (legacy: L) => T): LegacyFormat<T> {
  return {
    schema,
    parse(json) {
      const parsed = parser.safeParse(json);
      return parsed.success ? { ok: true, record: convert(parsed.data) } : { ok: false, error: parsed.error };
    },
  };
}

/** One record's format: the current schema name and zod schema, and the legacy format still read, if any. */
export interface VersionedFormat<T> {
  /** What the record is called in errors, e.g. "research run record". */
  what: string;
  schema: string;
  parser: z.ZodType<T>;
  legacy?: LegacyFormat<T>;
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`).join("; ");
}

/** Check parsed JSON `json` (read from `file`) against `format`, converting a legacy record; the error names the file and the offending fields. */
export function parseVersioned<T>(format: VersionedFormat<T>, json: unknown, file: string): T {
  const schema = json !== null && typeof json === "object" && !Array.isArray(json) ? (json as { schema?: unknown }).schema : undefined;
  // Dispatch on the declared schema so the error lists the fields of the format the file claims, not of both.
  const legacy = format.legacy;
  if (legacy && schema === legacy.schema) {
    const parsed = legacy.parse(json);
    if (!parsed.ok) throw new Error(`${file} is not a valid ${format.what} (${legacy.schema}): ${issuesText(parsed.error)}`);
    return parsed.record;
  }
  if (schema === format.schema) {
    const parsed = format.parser.safeParse(json);
    if (!parsed.success) throw new Error(`${file} is not a valid ${format.what} (${format.schema}): ${issuesText(parsed.error)}`);
    return parsed.data;
  }
  const found = schema === undefined ? "has no schema field" : `has schema ${JSON.stringify(schema)}`;
  const also = legacy ? ` (or "${legacy.schema}" from earlier releases)` : "";
  throw new Error(`${file} is not a ${format.what}: it ${found}, expected "${format.schema}"${also}`);
}

/** Read `file` as JSON and check it against `format`; the error names the file. */
export function readVersioned<T>(format: VersionedFormat<T>, file: string): T {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : (e as Error).message;
    throw new Error(`Cannot read ${format.what} ${file}: ${reason}`);
  }
  return parseVersioned(format, json, file);
}

/** Write `record` to `file` atomically as indented JSON, `schema` first, so a killed writer leaves the old or the new file. */
export function writeVersioned(file: string, record: { schema: string }): void {
  const { schema, ...rest } = record;
  writeFileAtomic(file, JSON.stringify({ schema, ...rest }, null, 2) + "\n");
}
