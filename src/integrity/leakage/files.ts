/** Whole-file checks: private files copied into public/, or reappearing there under the same name. */
import fs from "node:fs";
import path from "node:path";
import { md5File } from "../../prepare/prepare.js";
import type { LeakageFinding, ResolvedOptions } from "./types.js";

/** A file under a directory: its "/"-separated path relative to it, absolute path and size. */
export interface FileEntry {
  rel: string;
  abs: string;
  size: number;
}

/** Every regular file under `dir`, sorted by relative path. */
export function walkFiles(dir: string): FileEntry[] {
  const out: FileEntry[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      const abs = path.join(d, e.name);
      if (e.isDirectory()) walk(abs, r);
      else if (e.isFile()) out.push({ rel: r, abs, size: fs.statSync(abs).size });
    }
  };
  walk(dir, "");
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/**
 * Compare private and public files. Only files whose size equals a file on the other side are
 * hashed, so folders of images cost a directory listing, not a read.
 */
export function checkFiles(
  privateFiles: FileEntry[],
  publicFiles: FileEntry[],
  opts: ResolvedOptions,
): { findings: LeakageFinding[]; hashed: number } {
  const publicBySize = new Map<number, FileEntry[]>();
  for (const f of publicFiles) {
    const list = publicBySize.get(f.size);
    if (list) list.push(f);
    else publicBySize.set(f.size, [f]);
  }
  const hashes = new Map<string, string>();
  const md5 = (f: FileEntry) => {
    let h = hashes.get(f.abs);
    if (h === undefined) hashes.set(f.abs, (h = md5File(f.abs)));
    return h;
  };
  const findings: LeakageFinding[] = [];
  for (const p of privateFiles) {
    // Empty files are identical to every other empty file and carry nothing.
    const candidates = p.size === 0 ? [] : (publicBySize.get(p.size) ?? []);
    const copies: FileEntry[] = [];
    const sameName: FileEntry[] = [];
    for (const q of candidates) {
      if (md5(q) === md5(p)) copies.push(q);
      else if (path.posix.basename(q.rel) === path.posix.basename(p.rel)) sameName.push(q);
    }
    if (copies.length > 0) {
      findings.push({
        kind: "file-copy",
        severity: "leak",
        message: `private/${p.rel} (${p.size} bytes) is byte-identical to ${copies.map((c) => `public/${c.rel}`).join(", ")}`,
        file: copies[0].rel,
        count: copies.length,
        examples: copies.slice(0, opts.maxExamples).map((c) => `public/${c.rel} md5 ${md5(c)}`),
      });
    }
    for (const q of sameName) {
      findings.push({
        kind: "same-name-file",
        severity: "warning",
        message: `private/${p.rel} and public/${q.rel} share a name and a size (${p.size} bytes) but not their bytes`,
        file: q.rel,
        examples: [`private md5 ${md5(p)}`, `public md5 ${md5(q)}`],
      });
    }
  }
  return { findings, hashed: hashes.size };
}
