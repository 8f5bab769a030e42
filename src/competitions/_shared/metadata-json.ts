/**
 * Python's `json.load` and `json.dump(indent=4, sort_keys=True)` for the multi-hundred-megabyte
 * COCO-style metadata files of the herbarium and iNaturalist competitions.
 *
 * V8 caps strings at about 512 MiB, which the largest Kaggle metadata files come close to, so
 * these are read with the shared tokenizer (src/pycompat/json-tokenizer.ts) straight from their
 * bytes, decoding one JSON string at a time; the values are the ones `parsePyJson` gives. Keys and
 * small ints repeat millions of times in these files, so they are shared rather than allocated
 * per record: that is all this file adds to the shared reader. The writer is pyjson's, with
 * sorted keys.
 */
import fs from "node:fs";
import { UserError } from "../../core/errors.js";
import { bytesSource, JsonTokenizer, PYTHON_JSON, type JsonDialect } from "../../pycompat/json-tokenizer.js";
import { writePyJson, type PyJson } from "../../pycompat/pyjson.js";

/** How Python opened the file: `encoding="utf-8"` (strict) or `encoding="latin-1"` (every byte a code point). */
export type MetadataEncoding = "utf-8" | "latin-1";

// Ints below this are shared bigints: licence ids, widths, heights and category ids repeat endlessly.
const SMALL_INTS = 1 << 17;
// A dict with unique keys per record (rare here) must not grow the key cache without bound.
const KEY_CACHE_LIMIT = 1 << 14;

/** Python's dialect, with each small non-negative int one shared bigint. */
function sharedIntDialect(): JsonDialect {
  const smallInts: bigint[] = [];
  return {
    ...PYTHON_JSON,
    number(t) {
      const start = t.scanNumber();
      // Six digits at most and no sign: cheap to rule out before converting.
      if (!t.isFloat && t.pos - start <= 6 && t.src.at(start) !== 0x2d) {
        const n = Number(t.asciiSince(start));
        if (n < SMALL_INTS) return (smallInts[n] ??= BigInt(n));
      }
      return t.pyNumberValue(start);
    },
  };
}

/** A key map that hands back the first copy of each key, up to a bounded number of keys. */
function keyInterner(): (k: string) => string {
  const keys = new Map<string, string>();
  return (k) => {
    const known = keys.get(k);
    if (known !== undefined) return known;
    if (keys.size < KEY_CACHE_LIMIT) keys.set(k, k);
    return k;
  };
}

/** Python's `json.loads(bytes.decode(encoding))` on raw bytes; `where` names the input in errors. */
export function parseMetadataBytes(bytes: Buffer, where: string, encoding: MetadataEncoding): PyJson {
  const t = new JsonTokenizer(bytesSource(bytes, encoding), where, { dialect: sharedIntDialect(), key: keyInterner() });
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) t.fail("starts with a UTF-8 byte order mark, which Python's json.load refuses");
  return t.document();
}

/** Python's `json.load(open(file, encoding=...))`, for files too large for one JavaScript string. */
export function readMetadataJson(file: string, encoding: MetadataEncoding): PyJson {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(`${file} does not exist`);
    throw e;
  }
  return parseMetadataBytes(bytes, file, encoding);
}

/**
 * Python's `json.dump(value, open(file, "w"), indent=indent, sort_keys=True)`, streamed to disk in
 * chunks and written atomically. Keys are sorted while writing, so the value itself is left as it is.
 */
export function writeSortedPyJson(file: string, value: PyJson, indent = 4): void {
  writePyJson(file, value, { indent, sortKeys: true });
}
