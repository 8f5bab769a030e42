/** Test helper: a column of bytes built from strings (null: missing) through the reader's builder. */
import { TextArena, TextBytesBuilder, type TextBytes } from "../../src/core/text-bytes.js";

export function textBytesOf(values: readonly (string | null)[], arena = new TextArena()): TextBytes {
  const b = new TextBytesBuilder(arena);
  for (const v of values) {
    if (v === null) b.appendNa();
    else {
      const u = Buffer.from(v, "utf8");
      b.append(u, 0, u.length);
    }
  }
  return b.finish();
}
