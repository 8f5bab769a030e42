import fs from "node:fs";
import path from "node:path";

/** Upstream lists a directory with `ls -F`: visible entries sorted bytewise, one a line, with a type mark. */
export function listDirectory(abs: string, given: string): string {
  const stat = fs.statSync(abs);
  if (!stat.isDirectory()) return `${given}${mark(abs)}\n`;
  const names = fs
    .readdirSync(abs)
    .filter((n) => !n.startsWith("."))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return names.map((n) => `${n}${mark(path.join(abs, n))}\n`).join("");
}

function mark(p: string): string {
  const st = fs.lstatSync(p);
  if (st.isSymbolicLink()) return "@";
  if (st.isDirectory()) return "/";
  if (st.isFIFO()) return "|";
  if (st.isSocket()) return "=";
  if (st.isFile() && st.mode & 0o111) return "*";
  return "";
}

/** Every regular file under `root` (symlinks are not followed), as POSIX paths relative to it. */
export function walkFiles(root: string, skip: (rel: string) => boolean): string[] {
  const out: string[] = [];
  const visit = (dir: string, prefix: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (skip(rel)) continue;
      if (entry.isDirectory()) visit(path.join(dir, entry.name), rel);
      else if (entry.isFile()) out.push(rel);
    }
  };
  visit(root, "");
  return out;
}

/** Python's `seq[start:stop]` bounds for a sequence of length `n` (negative indices count from the end). */
export function pySlice<T>(items: T[], start: number | null, stop: number | null): T[] {
  const n = items.length;
  const norm = (i: number | null, dflt: number): number => (i === null ? dflt : i < 0 ? Math.max(n + i, 0) : Math.min(i, n));
  return items.slice(norm(start, 0), norm(stop, n));
}

/** Python's int() on a JSON value: integers and integer text; null when int() would raise. */
export function pyInt(value: unknown): number | null {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value === "string" && /^\s*[+-]?\d+(_\d+)*\s*$/.test(value)) return Number(value.replace(/_/g, "").trim());
  return null;
}
