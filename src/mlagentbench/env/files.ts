import fs from "node:fs";
import path from "node:path";
import { MAX_NAME_BYTES, type SkipReason, type WalkedFile } from "../../io/untrusted.js";
import { utf8Prefix } from "./safe-fs.js";

/** Entries List Files shows of one folder; the rest are counted. */
export const LIST_MAX_ENTRIES = 10_000;

/**
 * Upstream lists a directory with `ls -F`: visible entries sorted bytewise, one a line, with a type
 * mark. Nothing is followed (a link is shown as a link), at most {@link LIST_MAX_ENTRIES} entries are
 * shown (then a line counting the others), and control characters in names are shown escaped so a
 * name cannot fake other lines.
 */
export function listDirectory(abs: string, given: string): string {
  const stat = fs.lstatSync(abs);
  if (!stat.isDirectory()) return `${given}${mark(abs)}\n`;
  // Names are kept as bytes: one that is not UTF-8 must still be found again by lstat.
  let kept: Buffer[] = [];
  let total = 0;
  const dir = fs.opendirSync(abs, { encoding: "buffer" as BufferEncoding });
  try {
    for (let e = dir.readSync(); e !== null; e = dir.readSync()) {
      const name = e.name as unknown as Buffer;
      if (name[0] === 0x2e) continue;
      total++;
      kept.push(name);
      // Keeping only the smallest names bounds memory however large the folder is.
      if (kept.length >= 2 * LIST_MAX_ENTRIES) kept = kept.sort(Buffer.compare).slice(0, LIST_MAX_ENTRIES);
    }
  } finally {
    dir.closeSync();
  }
  kept = kept.sort(Buffer.compare).slice(0, LIST_MAX_ENTRIES);
  const prefix = Buffer.from(abs.endsWith("/") ? abs : abs + "/");
  const lines = kept.map((n) => `${showName(n.toString("utf8"))}${mark(Buffer.concat([prefix, n]))}\n`);
  if (total > kept.length) lines.push(`[${total - kept.length} more entries not shown]\n`);
  return lines.join("");
}

/** A name as shown to the agent: control characters as \n, \t, \r or \xHH. */
export function showName(name: string): string {
  return name.replace(/[\x00-\x1f\x7f]/g, (c) => (c === "\n" ? "\\n" : c === "\t" ? "\\t" : c === "\r" ? "\\r" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`));
}

function mark(p: string | Buffer): string {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch {
    return "";
  }
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

/** Bounds of {@link walkWorkspace}. */
export interface WorkspaceWalkLimits {
  /** Folder levels below the root that are entered. */
  maxDepth: number;
  /** Entries looked at in all. */
  maxEntries: number;
  /** Longest absolute path looked at, bytes. */
  maxPathBytes: number;
}

/** What {@link walkWorkspace} found and left out; `cut` is the first entry (as path parts) not looked at once the entry bound was reached. */
export interface WorkspaceWalk {
  files: WalkedFile[];
  skipped: { rel: string; why: SkipReason }[];
  cut: string[] | null;
}

/**
 * The regular files under `root` in bytewise name order, like `walkUntrusted` (no link followed,
 * only regular files, bounded entries, depth and path bytes, skipped entries with the reason) but
 * never entering what `prune` names, so read-only data trees neither cost a walk at every step nor
 * use up the entry bound. Names that are not UTF-8 are skipped as unreadable: a trace cannot name them.
 */
export function walkWorkspace(root: string, prune: (rel: string) => boolean, limits: WorkspaceWalkLimits): WorkspaceWalk {
  const out: WorkspaceWalk = { files: [], skipped: [], cut: null };
  let seen = 0;
  const visit = (dir: string, rel: string, parts: string[], depth: number): boolean => {
    // Only the names the entry bound can still reach are kept (the smallest ones), so a folder of
    // millions of names costs a scan but not the memory to hold them.
    const room = limits.maxEntries - seen + 1;
    let names: Buffer[] = [];
    let d: fs.Dir | null = null;
    try {
      d = fs.opendirSync(dir, { encoding: "buffer" as BufferEncoding });
      for (let e = d.readSync(); e !== null; e = d.readSync()) {
        const raw = e.name as unknown as Buffer;
        if (prune(rel ? `${rel}/${raw.toString("utf8")}` : raw.toString("utf8"))) continue;
        names.push(raw);
        if (names.length >= 2 * room) names = names.sort(Buffer.compare).slice(0, room);
      }
    } catch {
      out.skipped.push({ rel: rel || ".", why: "unreadable" });
      return true;
    } finally {
      d?.closeSync();
    }
    names = names.sort(Buffer.compare).slice(0, room);
    for (const raw of names) {
      const name = raw.toString("utf8");
      const r = rel ? `${rel}/${name}` : name;
      if (++seen > limits.maxEntries) {
        out.skipped.push({ rel: r, why: "too many entries" });
        out.cut = [...parts, name];
        return false;
      }
      if (!Buffer.from(name).equals(raw)) {
        out.skipped.push({ rel: r, why: "unreadable" });
        continue;
      }
      const abs = path.join(dir, name);
      if (Buffer.byteLength(abs) > limits.maxPathBytes || raw.length > MAX_NAME_BYTES) {
        out.skipped.push({ rel: r, why: "path too long" });
        continue;
      }
      let st: fs.Stats;
      try {
        st = fs.lstatSync(abs);
      } catch {
        out.skipped.push({ rel: r, why: "unreadable" });
        continue;
      }
      let why: SkipReason | null = null;
      if (st.isSymbolicLink()) why = "symbolic link";
      else if (st.isDirectory()) {
        if (depth >= limits.maxDepth) why = "too deep";
        else if (!visit(abs, r, [...parts, name], depth + 1)) return false;
      } else if (st.isFile()) out.files.push({ rel: r, abs, size: st.size });
      else why = "not a regular file";
      if (why) out.skipped.push({ rel: r, why });
    }
    return true;
  };
  let rootStat: fs.Stats | null = null;
  try {
    rootStat = fs.lstatSync(root);
  } catch {
    // reported below
  }
  if (!rootStat || !rootStat.isDirectory()) out.skipped.push({ rel: ".", why: !rootStat ? "missing" : rootStat.isSymbolicLink() ? "symbolic link" : "not a regular file" });
  else visit(root, "", [], 0);
  return out;
}

/** Whether the walk looked at `rel` (given as its parts): it comes before the entry where the walk was cut. */
export function walkedBefore(parts: string[], cut: string[] | null): boolean {
  if (cut === null) return true;
  for (let i = 0; i < Math.min(parts.length, cut.length); i++) {
    const c = Buffer.compare(Buffer.from(parts[i]!), Buffer.from(cut[i]!));
    if (c !== 0) return c < 0;
  }
  return parts.length < cut.length;
}

/** Python's slice bounds `[start:stop]` on a sequence of length `n`, as indices into it. */
export function pySliceBounds(n: number, start: number | null, stop: number | null): [number, number] {
  const norm = (i: number | null, dflt: number): number => (i === null ? dflt : i < 0 ? Math.max(n + i, 0) : Math.min(i, n));
  return [norm(start, 0), norm(stop, n)];
}

/**
 * Lines `[start:stop]` (Python slice bounds) of the open file `fd` of `size` bytes, split at "\n"
 * as String.split does, read in chunks so that a large file is never held in memory: how many
 * lines the file has, and the selected lines joined by "\n", at most `maxBytes` of them.
 */
export function sliceFileLines(fd: number, size: number, start: number | null, stop: number | null, maxBytes: number): { lines: number; text: string; cut: boolean } {
  const buf = Buffer.allocUnsafe(Math.min(1 << 20, Math.max(size, 1)));
  // Calls back with the byte offset of every "\n" until it returns false.
  const eachNewline = (fn: (offset: number) => boolean): void => {
    for (let pos = 0; pos < size; ) {
      const n = fs.readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
      if (n === 0) return;
      for (let i = buf.indexOf(10, 0); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) if (!fn(pos + i)) return;
      pos += n;
    }
  };
  let newlines = 0;
  eachNewline(() => {
    newlines++;
    return true;
  });
  const lines = newlines + 1;
  const [lo, hi] = pySliceBounds(lines, start, stop);
  if (hi <= lo) return { lines, text: "", cut: false };
  // Line k starts after the k-th newline and ends at the (k+1)-th (or at the end of the file).
  let from = lo === 0 ? 0 : -1;
  let to = size;
  let count = 0;
  eachNewline((off) => {
    count++;
    if (count === lo) from = off + 1;
    if (count === hi) {
      to = off;
      return false;
    }
    return true;
  });
  const want = Math.min(to - from, maxBytes);
  const out = Buffer.allocUnsafe(Math.max(want, 0));
  let got = 0;
  while (got < want) {
    const n = fs.readSync(fd, out, got, want - got, from + got);
    if (n === 0) break;
    got += n;
  }
  const cut = to - from > maxBytes;
  const bytes = out.subarray(0, got);
  return { lines, text: (cut ? utf8Prefix(bytes) : bytes).toString("utf8"), cut };
}

/** Python's `seq[start:stop]` bounds for a sequence of length `n` (negative indices count from the end). */
export function pySlice<T>(items: T[], start: number | null, stop: number | null): T[] {
  return items.slice(...pySliceBounds(items.length, start, stop));
}

/** Python's int() on a JSON value: integers and integer text; null when int() would raise. */
export function pyInt(value: unknown): number | null {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value === "string" && /^\s*[+-]?\d+(_\d+)*\s*$/.test(value)) return Number(value.replace(/_/g, "").trim());
  return null;
}
