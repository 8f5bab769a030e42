/**
 * Upstream's per-competition checksums.yaml: the md5 of the downloaded Kaggle zip and of each
 * prepared file.
 *
 * Accepted shape: a YAML mapping whose values are either an md5 (32 hex digits) or a nested
 * mapping of the same kind, e.g.
 *
 *     private:
 *       test.csv: 1cb99c65efecaba968128577722a83ef
 *     public:
 *       train.csv: 564a1614ecef9d9611cec4efdce4c412
 *     zip: 67c177886736583aff9b947e121395a9
 *
 * Upstream writes exactly two levels (zip at the top, one file per key under public/private),
 * and an empty `public: {}` where a competition keeps nothing there; deeper nesting and keys
 * that already contain "/" are accepted too, since both name a path unambiguously. The result
 * is flat: {"private/test.csv": …, "public/train.csv": …, "zip": …}, md5s in lower case.
 */
import fs from "node:fs";
import YAML from "yaml";
import { UserError } from "../../core/errors.js";

/** Relative path ("public/train.csv", or "zip" for the Kaggle archive) → lower-case md5 hex. */
export type Checksums = Record<string, string>;

const MD5 = /^[0-9a-fA-F]{32}$/;

function describe(value: unknown): string {
  if (value === null || value === undefined || value === "") return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return typeof value;
}

/** Keys become paths inside the data dir, so nothing may climb out of it or be absolute. */
function checkKey(key: string, path: string, file: string): void {
  const parts = key.split("/");
  if (key === "" || key.includes("\\") || parts.some((p) => p === "" || p === "." || p === "..")) {
    throw new UserError(`${file}: key ${JSON.stringify(path)} is not a relative file path.`);
  }
}

/** Parse upstream checksums.yaml text into a flat path → md5 map; `file` names it in errors. */
export function parseChecksumsYaml(text: string, file: string): Checksums {
  let doc: unknown;
  try {
    // The failsafe schema keeps every scalar a string: under YAML 1.2's core schema an md5 made
    // only of digits (or digits and one "e") would silently turn into a number.
    doc = YAML.parse(text, { schema: "failsafe" });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new UserError(`${file} is not valid YAML: ${msg.trimEnd()}`);
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new UserError(`${file}: expected a mapping of file paths to md5 checksums, got ${describe(doc)}.`);
  }
  const out: Checksums = Object.create(null) as Checksums;
  const walk = (node: Record<string, unknown>, prefix: string): void => {
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}/${key}` : key;
      checkKey(key, path, file);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        walk(value as Record<string, unknown>, path);
        continue;
      }
      if (typeof value !== "string" || !MD5.test(value)) {
        throw new UserError(`${file}: checksum for "${path}" must be an md5 (32 hex digits), got ${describe(value)}.`);
      }
      if (path in out) throw new UserError(`${file}: "${path}" is listed twice.`);
      out[path] = value.toLowerCase();
    }
  };
  walk(doc as Record<string, unknown>, "");
  // A plain object again, so callers can use it like any other record (JSON, spreading, equality).
  return { ...out };
}

/** Read and parse a checksums.yaml from disk; a missing file is a UserError naming it. */
export function readChecksumsYaml(file: string): Checksums {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`Cannot read checksums file ${file}${code ? ` (${code})` : ""}.`);
  }
  return parseChecksumsYaml(text, file);
}
