import { describe, expect, it } from "vitest";
import { pyFloatRepr } from "../../src/pycompat/pyfloat.js";
import { fromBits, golden } from "../io/golden.js";

describe("pyFloatRepr", () => {
  it("matches Python's repr for every golden float", () => {
    expect(golden.repr.length).toBeGreaterThan(150);
    const wrong = golden.repr
      .map(([bits, want]) => ({ bits, want, got: pyFloatRepr(fromBits(bits)) }))
      .filter((r) => r.got !== r.want);
    expect(wrong).toEqual([]);
  });

  it("formats the documented corner cases", () => {
    expect(pyFloatRepr(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(pyFloatRepr(1e16)).toBe("1e+16");
    expect(pyFloatRepr(1.5e16)).toBe("1.5e+16");
    expect(pyFloatRepr(1e15)).toBe("1000000000000000.0");
    expect(pyFloatRepr(1e-5)).toBe("1e-05");
    expect(pyFloatRepr(1e-4)).toBe("0.0001");
    expect(pyFloatRepr(1e100)).toBe("1e+100");
    expect(pyFloatRepr(123456789012345680000)).toBe("1.2345678901234568e+20");
    expect(pyFloatRepr(1)).toBe("1.0");
    expect(pyFloatRepr(100)).toBe("100.0");
    expect(pyFloatRepr(-0)).toBe("-0.0");
    expect(pyFloatRepr(0)).toBe("0.0");
    expect(pyFloatRepr(NaN)).toBe("nan");
    expect(pyFloatRepr(Infinity)).toBe("inf");
    expect(pyFloatRepr(-Infinity)).toBe("-inf");
    expect(pyFloatRepr(5e-324)).toBe("5e-324");
    expect(pyFloatRepr(-2.5e-7)).toBe("-2.5e-07");
  });

  it("round-trips random doubles", () => {
    const dv = new DataView(new ArrayBuffer(8));
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed;
    };
    for (let i = 0; i < 20000; i++) {
      dv.setUint32(0, next());
      dv.setUint32(4, next());
      const x = dv.getFloat64(0);
      if (!Number.isFinite(x)) continue;
      const r = pyFloatRepr(x);
      expect(Object.is(Number(r), x)).toBe(true);
    }
  });
});
