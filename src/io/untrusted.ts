/**
 * Reading files an agent could have written (its submission, code/, logs/, workspace): never
 * through a symbolic link, never a FIFO or device (which would block or feed the reader forever),
 * and never more than a stated number of bytes, entries, levels or path bytes. Callers get what is
 * there within those bounds plus a list of what was skipped and why, and never an exception for
 * the agent's tree being strange.
 */
import fs from "node:fs";
import path from "node:path";

/** Linux refuses longer paths (ENAMETOOLONG); anything past it cannot be opened by path anyway. */
export const MAX_PATH_BYTES = 4000;
/** Longest single file name most filesystems allow. */
export const MAX_NAME_BYTES = 255;

const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY;

/** Paths longer than this are shown cut in the middle by {@link shownPath}. */
export const SHOWN_PATH_CHARS = 160;

/** `rel` as shown in messages: cut in the middle when very long (a hostile tree makes paths kilobytes long). */
export function shownPath(rel: string, max = SHOWN_PATH_CHARS): string {
  if (rel.length <= max) return rel;
  const half = Math.floor((max - 1) / 2);
  return `${rel.slice(0, half)}…${rel.slice(-half)}`;
}

/** Why an untrusted path was not read. */
export type SkipReason = "symbolic link" | "not a regular file" | "missing" | "too deep" | "path too long" | "too many entries" | "unreadable";

/** A path that was not opened, and why. */
export interface Skipped {
  skipped: SkipReason;
  /** For a path opened below a root: the component (relative to the root) that stopped it, when it is not the file itself. */
  via?: string;
}

const PHRASES: Record<SkipReason, string> = {
  "symbolic link": "a symbolic link, not followed",
  "not a regular file": "not a regular file, not opened",
  missing: "missing",
  "too deep": "nested too deep, not entered",
  "path too long": "path too long, not opened",
  "too many entries": "past the limit on entries read",
  unreadable: "unreadable",
};

/** The reason as a phrase for messages, e.g. "a symbolic link, not followed". */
export function describeSkip(why: SkipReason): string {
  return PHRASES[why];
}

function errnoReason(e: unknown): SkipReason {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ELOOP") return "symbolic link";
  if (code === "ENOENT" || code === "ENOTDIR") return "missing";
  if (code === "ENAMETOOLONG") return "path too long";
  if (code === "ENXIO") return "not a regular file"; // a FIFO with no writer, a socket
  return "unreadable";
}

/**
 * Open a regular file without following a link at its last component; returns the descriptor
 * (the caller closes it) and its size, or why it was not opened.
 */
export function openRegular(file: string): { fd: number; size: number } | Skipped {
  if (Buffer.byteLength(file) > MAX_PATH_BYTES) return { skipped: "path too long" };
  // Looked at before opening: opening a device can have effects of its own, even non-blocking.
  let before: fs.Stats;
  try {
    before = fs.lstatSync(file);
  } catch (e) {
    return { skipped: errnoReason(e) };
  }
  if (before.isSymbolicLink()) return { skipped: "symbolic link" };
  if (!before.isFile()) return { skipped: "not a regular file" };
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (e) {
    return { skipped: errnoReason(e) };
  }
  // The descriptor decides: the path may have been swapped for something else since the lstat.
  let st: fs.Stats;
  try {
    st = fs.fstatSync(fd);
  } catch {
    fs.closeSync(fd);
    return { skipped: "unreadable" };
  }
  if (!st.isFile()) {
    fs.closeSync(fd);
    return { skipped: "not a regular file" };
  }
  return { fd, size: st.size };
}

/**
 * Open `rel` (a relative path, "/"-separated) below `root` like {@link openRegular}, and also
 * refuse it when any folder on the way below `root` is a symbolic link or not a folder, so a
 * linked `logs/` cannot lead a reader of `logs/agent.log` elsewhere.
 */
export function openUnder(root: string, rel: string): { fd: number; size: number } | Skipped {
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.length === 0 || parts.includes("..")) return { skipped: "unreadable" };
  let dir = root;
  for (let k = 0; k < parts.length - 1; k++) {
    dir = path.join(dir, parts[k]!);
    if (Buffer.byteLength(dir) > MAX_PATH_BYTES) return { skipped: "path too long" };
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch (e) {
      return { skipped: errnoReason(e), via: parts.slice(0, k + 1).join("/") };
    }
    if (st.isSymbolicLink()) return { skipped: "symbolic link", via: parts.slice(0, k + 1).join("/") };
    if (!st.isDirectory()) return { skipped: "missing", via: parts.slice(0, k + 1).join("/") };
  }
  return openRegular(path.join(root, ...parts));
}

/** What {@link readRegularFile} read. */
export interface ReadResult {
  bytes: Buffer;
  /** The file's size when it was opened. */
  size: number;
  /** Whether only the first `maxBytes` were read. */
  truncated: boolean;
}

/**
 * Read at most `maxBytes` from an open descriptor of a file of `size` bytes, from `offset` (default
 * its start); the caller closes it.
 */
export function readOpened(fd: number, size: number, maxBytes: number, offset = 0): ReadResult {
  const want = Math.max(0, Math.min(size - offset, maxBytes));
  const buf = Buffer.allocUnsafe(want);
  let got = 0;
  while (got < want) {
    const n = fs.readSync(fd, buf, got, want - got, offset + got);
    if (n === 0) break; // shrank since fstat
    got += n;
  }
  return { bytes: buf.subarray(0, got), size, truncated: size > offset + got };
}

function readAndClose(opened: { fd: number; size: number } | Skipped, maxBytes: number): ReadResult | Skipped {
  if ("skipped" in opened) return opened;
  try {
    return readOpened(opened.fd, opened.size, maxBytes);
  } catch {
    return { skipped: "unreadable" };
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** Read at most `maxBytes` of a regular file opened without following links; the reason when it is not one. */
export function readRegularFile(file: string, maxBytes: number): ReadResult | Skipped {
  return readAndClose(openRegular(file), maxBytes);
}

/** Read at most `maxBytes` of `rel` below `root`, as {@link openUnder} opens it. */
export function readFileUnder(root: string, rel: string, maxBytes: number): ReadResult | Skipped {
  return readAndClose(openUnder(root, rel), maxBytes);
}

/** What is at `p` (a link itself, not its target), or null when nothing is. */
export function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

/** Read a regular file as UTF-8 text, at most `maxBytes`; null when it is missing or not a regular file. */
export function readRegularText(file: string, maxBytes: number): string | null {
  const r = readRegularFile(file, maxBytes);
  return "skipped" in r ? null : r.bytes.toString("utf8");
}

/** Whether `p` is a real directory (not a link to one). */
export function isRealDirectory(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Bounds of {@link walkUntrusted}. */
export interface WalkLimits {
  /** Directory levels below the root that are entered (default 20). */
  maxDepth?: number;
  /** Entries looked at in all (default 100,000). */
  maxEntries?: number;
  /** Longest absolute path followed, bytes (default {@link MAX_PATH_BYTES}). */
  maxPathBytes?: number;
  /** Skipped entries listed one by one (default 1,000); the rest are only counted in `skippedMore`. */
  maxSkipped?: number;
  /** Folders by name that are passed over silently (tool caches and the like). */
  ignoreDirs?: ReadonlySet<string>;
}

/** A regular file found by {@link walkUntrusted}. */
export interface WalkedFile {
  /** Path relative to the root, with "/" separators. */
  rel: string;
  abs: string;
  size: number;
}

/** What a walk found and what it left out. */
export interface WalkResult {
  files: WalkedFile[];
  skipped: { rel: string; why: SkipReason }[];
  /** Skipped entries beyond `maxSkipped`, counted but not listed. */
  skippedMore: number;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The regular files under `root`, in name order, without following any symbolic link (links are
 * listed as skipped) and within the limits; a root that is missing or not a real directory gives
 * an empty result with the reason.
 */
export function walkUntrusted(root: string, limits: WalkLimits = {}): WalkResult {
  const maxDepth = limits.maxDepth ?? 20;
  const maxEntries = limits.maxEntries ?? 100_000;
  const maxPath = limits.maxPathBytes ?? MAX_PATH_BYTES;
  const maxSkipped = limits.maxSkipped ?? 1000;
  const ignore = limits.ignoreDirs ?? new Set<string>();
  const out: WalkResult = { files: [], skipped: [], skippedMore: 0 };
  const skip = (rel: string, why: SkipReason) => {
    if (out.skipped.length < maxSkipped) out.skipped.push({ rel, why });
    else out.skippedMore++;
  };
  if (Buffer.byteLength(root) > maxPath) {
    skip(".", "path too long");
    return out;
  }
  let rootStat: fs.Stats;
  try {
    rootStat = fs.lstatSync(root);
  } catch (e) {
    skip(".", errnoReason(e) === "path too long" ? "path too long" : "missing");
    return out;
  }
  if (rootStat.isSymbolicLink()) {
    skip(".", "symbolic link");
    return out;
  }
  if (!rootStat.isDirectory()) {
    skip(".", "not a regular file");
    return out;
  }
  let seen = 0;
  let full = false;
  let toldFull = false;
  const visit = (dir: string, rel: string, depth: number): void => {
    // Names are read one at a time and only up to the budget: a folder with millions of entries
    // costs no more than the budget allows.
    const names: string[] = [];
    let handle: fs.Dir;
    try {
      handle = fs.opendirSync(dir);
    } catch {
      skip(rel || ".", "unreadable");
      return;
    }
    try {
      for (let e = handle.readSync(); e !== null; e = handle.readSync()) {
        if (seen + names.length >= maxEntries) {
          full = true;
          break;
        }
        names.push(e.name);
      }
    } catch {
      skip(rel || ".", "unreadable");
    } finally {
      handle.closeSync();
    }
    seen += names.length;
    names.sort(byName);
    for (const name of names) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = path.join(dir, name);
      if (Buffer.byteLength(abs) > maxPath || Buffer.byteLength(name) > MAX_NAME_BYTES) {
        skip(r, "path too long");
        continue;
      }
      let st: fs.Stats;
      try {
        st = fs.lstatSync(abs);
      } catch (e) {
        skip(r, errnoReason(e) === "path too long" ? "path too long" : "unreadable");
        continue;
      }
      if (st.isSymbolicLink()) skip(r, "symbolic link");
      else if (st.isDirectory()) {
        if (ignore.has(name)) continue;
        if (depth >= maxDepth) skip(r, "too deep");
        else visit(abs, r, depth + 1);
      } else if (st.isFile()) out.files.push({ rel: r, abs, size: st.size });
      else skip(r, "not a regular file");
    }
    if (full && !toldFull) {
      toldFull = true;
      skip(rel || ".", "too many entries");
    }
  };
  visit(root, "", 0);
  return out;
}
