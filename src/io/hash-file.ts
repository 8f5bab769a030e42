import { createHash } from "node:crypto";
import fs from "node:fs";

/** The hex digest of a file's bytes (md5, sha256, …), read in 1 MiB chunks so any size fits in constant memory. */
export function hashFile(file: string, algorithm: "md5" | "sha256"): string {
  const hash = createHash(algorithm);
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest("hex");
}
