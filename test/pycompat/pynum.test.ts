/**
 * Expected values are what Debian's Python 3.11 (/usr/bin/python3) prints for the expression in
 * each row's comment; null stands for ValueError, undefined for unicodedata.decimal's default.
 */
import { describe, expect, it } from "vitest";
import { pyDigit, pyFloat, pyInt } from "../../src/pycompat/pynum.js";

describe("pyFloat", () => {
  const cases: [string, number | null][] = [
    ["1_000.5", 1000.5], // float('1_000.5')
    ["1_0e1_0", 100000000000], // float('1_0e1_0')
    ["0_0.0_1", 0.01], // float('0_0.0_1')
    ["\u0661\u0662\u0663", 123], // float('١٢٣')
    ["\u0661.\u0665", 1.5], // float('١.٥')
    ["\uff11\uff12.\uff15", 12.5], // float('１２.５')
    ["\uff11e\uff15", 100000], // float('１e５')
    ["\u{1d7d7}", 9], // float('\U0001d7d7')
    ["\x855\x85", 5], // float('\x855\x85')
    ["\u30005\u2028", 5], // float('\u30005\u2028')
    ["\xa0-5\u2009", -5], // float('\xa0-5\u2009')
    [" +1.5 ", 1.5], // float(' +1.5 ')
    ["\t\n2\r\v\f", 2], // float('\t\n2\r\x0b\x0c')
    ["-2", -2], // float('-2')
    ["1e5", 100000], // float('1e5')
    ["1E-3", 0.001], // float('1E-3')
    [".5", 0.5], // float('.5')
    ["5.", 5], // float('5.')
    ["-.5e1", -5], // float('-.5e1')
    ["+5.e+2", 500], // float('+5.e+2')
    ["007.5", 7.5], // float('007.5')
    ["inf", Infinity], // float('inf')
    ["-Infinity", -Infinity], // float('-Infinity')
    ["nAn", NaN], // float('nAn')
    ["+iNf", Infinity], // float('+iNf')
    ["-nan", NaN], // float('-nan')
    ["INFINITY", Infinity], // float('INFINITY')
    ["0.1", 0.1], // float('0.1')
    ["1e400", Infinity], // float('1e400')
    ["-1e400", -Infinity], // float('-1e400')
    ["1e-400", 0], // float('1e-400')
    ["2.2250738585072011e-308", 2.225073858507201e-308], // float('2.2250738585072011e-308')
    ["9007199254740993", 9007199254740992], // float('9007199254740993')
    ["0.30000000000000004", 0.30000000000000004], // float('0.30000000000000004')
    ["\x1c5", null], // float('\x1c5'): str.strip() removes \x1c, float() does not
    ["5\x1f", null], // float('5\x1f')
    ["\ufeff5", null], // float('\ufeff5')
    ["5\u200b", null], // float('5\u200b')
    ["1__0", null], // float('1__0')
    ["_1", null], // float('_1')
    ["1_", null], // float('1_')
    ["1_.5", null], // float('1_.5')
    ["1._5", null], // float('1._5')
    ["1e_5", null], // float('1e_5')
    ["1_e5", null], // float('1_e5')
    ["0x10", null], // float('0x10')
    ["", null], // float('')
    [" ", null], // float(' ')
    ["\x85", null], // float('\x85')
    ["1e", null], // float('1e')
    ["e5", null], // float('e5')
    [".", null], // float('.')
    ["1.2.3", null], // float('1.2.3')
    ["+-1", null], // float('+-1')
    ["--1", null], // float('--1')
    ["in_f", null], // float('in_f')
    ["infinit", null], // float('infinit')
    ["nana", null], // float('nana')
    ["\uff11\uff45\uff15", null], // float('１ｅ５')
    ["\uff11\uff0e\uff15", null], // float('１．５')
    ["1 2", null], // float('1 2')
    ["1,5", null], // float('1,5')
    ["\xb2", null], // float('²')
  ];

  it.each(cases)("float(%j)", (text, want) => {
    expect(pyFloat(text)).toBe(want);
  });
});

describe("pyInt", () => {
  const cases: [string, bigint | null][] = [
    ["42", 42n], // int('42')
    [" -7 ", -7n], // int(' -7 ')
    ["+0", 0n], // int('+0')
    ["-0", 0n], // int('-0')
    ["007", 7n], // int('007')
    ["1_000", 1000n], // int('1_000')
    ["\u0661\u0662\u0663", 123n], // int('١٢٣')
    ["\uff11\uff12", 12n], // int('１２')
    ["\u{1d7d8}\u{1d7d9}", 1n], // int('\U0001d7d8\U0001d7d9')
    ["\x8512\u3000", 12n], // int('\x8512\u3000')
    ["99999999999999999999999", 99999999999999999999999n], // int('99999999999999999999999')
    ["\x1c1", null], // int('\x1c1')
    ["1\x1f", null], // int('1\x1f')
    ["1__0", null], // int('1__0')
    ["_1", null], // int('_1')
    ["1_", null], // int('1_')
    ["0x10", null], // int('0x10')
    ["", null], // int('')
    [" ", null], // int(' ')
    ["+-1", null], // int('+-1')
    ["1.0", null], // int('1.0')
    ["1e5", null], // int('1e5')
    ["\u0661.\u0665", null], // int('١.٥')
    ["-", null], // int('-')
    ["+", null], // int('+')
    ["\xb2", null], // int('²')
    ["1 2", null], // int('1 2')
  ];

  it.each(cases)("int(%j)", (text, want) => {
    expect(pyInt(text)).toBe(want);
  });

  it("refuses more than 4300 digits, as Python 3.11 does", () => {
    // int('1'*4300) succeeds; int('1'*4301), int('0'*4300+'1') and int('١'*4301) raise ValueError.
    expect(pyInt("1".repeat(4300))).toBe(BigInt("1".repeat(4300)));
    expect(pyInt("1".repeat(4301))).toBeNull();
    expect(pyInt("0".repeat(4300) + "1")).toBeNull();
    expect(pyInt("\u0661".repeat(4301))).toBeNull();
    // int('-'+'1'*4300) and int('1_'*4299+'1') succeed: signs and underscores are not digits.
    expect(pyInt("-" + "1".repeat(4300))).toBe(-BigInt("1".repeat(4300)));
    expect(pyInt("1_".repeat(4299) + "1")).toBe(BigInt("1".repeat(4300)));
    // int('1_'*4300+'1') raises ValueError.
    expect(pyInt("1_".repeat(4300) + "1")).toBeNull();
  });
});

describe("pyDigit", () => {
  const cases: [string, number | undefined][] = [
    ["0", 0], // unicodedata.decimal('0', None)
    ["7", 7], // unicodedata.decimal('7', None)
    ["\u0665", 5], // unicodedata.decimal('٥', None)
    ["\uff15", 5], // unicodedata.decimal('５', None)
    ["\u{1d7d7}", 9], // unicodedata.decimal('\U0001d7d7', None)
    ["\u09ef", 9], // unicodedata.decimal('৯', None)
    ["a", undefined], // unicodedata.decimal('a', None)
    ["_", undefined], // unicodedata.decimal('_', None)
    ["\xb2", undefined], // unicodedata.decimal('²', None)
    ["\u2167", undefined], // unicodedata.decimal('Ⅷ', None)
    ["\u0f33", undefined], // unicodedata.decimal('\u0f33', None)
  ];

  it.each(cases)("decimal(%j)", (ch, want) => {
    expect(pyDigit(ch)).toBe(want);
  });

  it("takes exactly one character", () => {
    expect(pyDigit("")).toBeUndefined();
    expect(pyDigit("12")).toBeUndefined();
  });
});
