/**
 * What the validation server keeps of each upload: its sha256, its line count and how many lines
 * differ from the previous upload. That is enough to see an agent resubmitting the same file with a
 * few rows changed over and over (probing), without keeping any upload.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";

/** Uploads with more lines than this are hashed but not compared line by line (4 bytes a line kept). */
export const MAX_COMPARED_LINES = 4_000_000;

/** An upload's fingerprint, logged in validation.jsonl. */
export interface UploadFingerprint {
  sha256: string;
  lines: number;
  /** Lines that differ from the previous upload at the same position (all when the counts differ); null when there is nothing to compare. */
  changed_lines: number | null;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Line hashes of one file: 32-bit FNV-1a of each line, "\n"-terminated, a trailing "\r" included. */
class LineHasher {
  hashes: Uint32Array | null = new Uint32Array(1024);
  count = 0;
  private h = FNV_OFFSET;
  private open = false;

  update(chunk: Buffer): void {
    let h = this.h;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 0x0a) {
        this.push(h);
        h = FNV_OFFSET;
        this.open = false;
      } else {
        h = Math.imul(h ^ b, FNV_PRIME) >>> 0;
        this.open = true;
      }
    }
    this.h = h;
  }

  finish(): void {
    if (this.open) this.push(this.h);
  }

  private push(h: number): void {
    const n = this.count++;
    if (this.hashes === null) return;
    if (n >= MAX_COMPARED_LINES) {
      this.hashes = null;
      return;
    }
    if (n === this.hashes.length) {
      const grown = new Uint32Array(Math.min(MAX_COMPARED_LINES, this.hashes.length * 2));
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[n] = h;
  }
}

/** Fingerprints uploads in order, each compared with the one before. */
export class UploadFingerprinter {
  private previous: Uint32Array | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  /** Read `file` once and fingerprint it; uploads are taken one at a time, each compared with the one before. */
  fingerprint(file: string): Promise<UploadFingerprint> {
    const next = this.chain.then(
      () => this.take(file),
      () => this.take(file),
    );
    this.chain = next.catch(() => {});
    return next;
  }

  private async take(file: string): Promise<UploadFingerprint> {
    const sha = createHash("sha256");
    const lines = new LineHasher();
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
      sha.update(chunk as Buffer);
      lines.update(chunk as Buffer);
    }
    lines.finish();
    const current = lines.hashes === null ? null : lines.hashes.subarray(0, lines.count);
    const changed = changedLines(this.previous, current);
    this.previous = current;
    return { sha256: sha.digest("hex"), lines: lines.count, changed_lines: changed };
  }
}

/** Positions whose line hashes differ; every line when the counts differ; null when either side is missing. */
export function changedLines(a: Uint32Array | null, b: Uint32Array | null): number | null {
  if (a === null || b === null) return null;
  if (a.length !== b.length) return Math.max(a.length, b.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}
