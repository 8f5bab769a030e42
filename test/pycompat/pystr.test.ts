import { describe, expect, it } from "vitest";
import { pySplit, pyStrip } from "../../src/pycompat/pystr.js";

describe("Python whitespace", () => {
  it("strips and splits on what str.isspace() accepts, not on a byte order mark", () => {
    expect(pyStrip("\x1c\x85 a b\u3000\t")).toBe("a b");
    expect(pyStrip("\ufeffa ")).toBe("\ufeffa");
    expect(pySplit(" a\x1fb\u00a0\u00a0c\x85d\u2028e\ufeff ")).toEqual(["a", "b", "c", "d", "e\ufeff"]);
    expect(pySplit(" \t ")).toEqual([]);
  });
});
