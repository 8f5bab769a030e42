import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import {
  bytesSource,
  JsonTokenizer,
  PYTHON_JSON,
  StreamedText,
  textSource,
  type JsonSource,
  type PyJson,
} from "../../src/pycompat/json-tokenizer.js";

// Expected values printed by Debian's /usr/bin/python3 (3.11.2): json.loads(input), strings as
// their UTF-16 code units (utf-16-be, surrogatepass), floats by repr, errors as JSONDecodeError's
// msg, pos, lineno and colno.

const parse = (text: string, src: JsonSource = textSource(text)): PyJson => new JsonTokenizer(src, "t.json").document();
const units = (...u: number[]): string => String.fromCharCode(...u);

const STRINGS: [string, string][] = [
  [
    String.raw`"\u00e9\ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t"`,
    units(0x00e9, 0xd83d, 0xde00, 0x20, 0x22, 0x71, 0x22, 0x20, 0x5c, 0x20, 0x2f, 0x20, 0x08, 0x0c, 0x0a, 0x0d, 0x09),
  ],
  // A pair makes one code point in Python, which is these two units; lone or reversed halves stay as they are.
  [String.raw`"\ud83d\ude00"`, units(0xd83d, 0xde00)],
  [String.raw`"\uD83D\uDE00"`, units(0xd83d, 0xde00)],
  [String.raw`"\ud800"`, units(0xd800)],
  [String.raw`"\ud83d\u0041"`, units(0xd83d, 0x41)],
  [String.raw`"\ude00\ud83d"`, units(0xde00, 0xd83d)],
  ['"caf\u00e9 \u{1F600}"', units(0x63, 0x61, 0x66, 0xe9, 0x20, 0xd83d, 0xde00)],
];

const INTS: [string, bigint][] = [
  ["123456789012345678901234567890", 123456789012345678901234567890n],
  ["-98765432109876543210", -98765432109876543210n],
  ["18446744073709551616", 18446744073709551616n],
  ["9007199254740993", 9007199254740993n],
  ["-0", 0n],
];

const FLOATS: [string, number][] = [
  ["1e400", Infinity],
  ["-1e400", -Infinity],
  ["1e-400", 0],
  ["-0.0", -0],
  ["0.1", 0.1],
  ["1.7976931348623157e308", 1.7976931348623157e308],
  ["1.7976931348623158e308", 1.7976931348623157e308],
  ["1.7976931348623159e308", Infinity],
  ["2.2250738585072014e-308", 2.2250738585072014e-308],
  ["5e-324", 5e-324],
  ["2.4703282292062328e-324", 5e-324],
  ["2.4703282292062327e-324", 0],
  ["9007199254740993.0", 9007199254740992],
  ["1E5", 100000],
  ["1e+5", 100000],
  ["1.5E-3", 0.0015],
  ["12345678901234567890.5", 1.2345678901234567e19],
];

// [input, Python's message, pos, lineno, colno]; our messages say the same in lower case.
const ERRORS: [string, RegExp, number, number, number][] = [
  ["", /expecting value/, 0, 1, 1],
  ["[1, 2", /expecting ',' delimiter/, 5, 1, 6],
  ["[1,]", /expecting value/, 3, 1, 4],
  ['{"a" 1}', /expecting ':' delimiter/, 5, 1, 6],
  ['{"a": 1,}', /expecting property name enclosed in double quotes/, 8, 1, 9],
  ["{a: 1}", /expecting property name enclosed in double quotes/, 1, 1, 2],
  ["[1 2]", /expecting ',' delimiter/, 3, 1, 4],
  ["01", /extra data/, 1, 1, 2],
  ["1.", /extra data/, 1, 1, 2],
  ["1.e5", /extra data/, 1, 1, 2],
  ["1e", /extra data/, 1, 1, 2],
  ["1e+", /extra data/, 1, 1, 2],
  ["[1.5e]", /expecting ',' delimiter/, 4, 1, 5],
  ["-", /expecting value/, 0, 1, 1],
  ["-Inf", /expecting value/, 0, 1, 1],
  ["[-]", /expecting value/, 1, 1, 2],
  ["nul", /expecting value/, 0, 1, 1],
  ["tru", /expecting value/, 0, 1, 1],
  [".5", /expecting value/, 0, 1, 1],
  ["+1", /expecting value/, 0, 1, 1],
  ['"abc', /unterminated string/, 0, 1, 1],
  ['"a\nb"', /invalid control character/, 2, 1, 3],
  ['"a\tb"', /invalid control character/, 2, 1, 3],
  ['"\\x"', /invalid \\escape/, 1, 1, 2],
  ["[1] x", /extra data/, 4, 1, 5],
  ["[\n  1,\n  ]", /expecting value/, 9, 3, 3],
  ['{"a":\n\n  tru}', /expecting value/, 9, 3, 3],
];

/** The same text as a string, as UTF-8 bytes, and in pieces cut at every position. */
function everySource(text: string): JsonSource[] {
  const cuts = Array.from({ length: text.length + 1 }, (_, i) => new StreamedText([text.slice(0, i), "", text.slice(i)]));
  return [textSource(text), bytesSource(Buffer.from(text, "utf8"), "utf-8"), ...cuts];
}

describe("JsonTokenizer with Python's dialect", () => {
  it.each(STRINGS)("decodes the string %s", (text, want) => {
    for (const src of everySource(text)) expect(parse(text, src)).toBe(want);
  });

  it.each(INTS)("reads %s as an int of any size", (text, want) => {
    for (const src of everySource(text)) expect(parse(text, src)).toBe(want);
  });

  it.each(FLOATS)("reads %s as the float Python's float() gives", (text, want) => {
    for (const src of everySource(text)) expect(Object.is(parse(text, src), want)).toBe(true);
  });

  it("reads the literals json.loads accepts, and keeps a repeated key's first place and last value", () => {
    const v = parse("[NaN, Infinity, -Infinity, true, false, null]") as PyJson[];
    expect(Number.isNaN(v[0])).toBe(true);
    expect(v.slice(1)).toEqual([Infinity, -Infinity, true, false, null]);
    expect([...(parse('{"a": 1, "b": 2, "a": 3}') as Map<string, PyJson>)]).toEqual([
      ["a", 3n],
      ["b", 2n],
    ]);
  });

  it.each(ERRORS)("refuses %j where Python does", (text, message, pos, line, col) => {
    for (const src of [textSource(text), bytesSource(Buffer.from(text, "utf8"), "utf-8")]) {
      const unit = src.unit;
      expect(() => parse(text, src)).toThrow(UserError);
      expect(() => parse(text, src)).toThrow(`t.json: invalid JSON at line ${line} column ${col} (${unit} ${pos}): `);
      expect(() => parse(text, src)).toThrow(message);
    }
  });

  it("refuses a bad \\u escape (Python places it at the u, here at the backslash)", () => {
    expect(() => parse(String.raw`"\u12g4"`)).toThrow(/\(char 1\): invalid \\uXXXX escape/);
    expect(() => parse(String.raw`"\u12"`)).toThrow(/invalid \\uXXXX escape/);
  });

  it("stops with a UserError, not a stack overflow, on absurd nesting", () => {
    expect(() => parse("[".repeat(5000) + "]".repeat(5000))).toThrow(/nesting too deep/);
  });
});

describe("JsonTokenizer sources", () => {
  it("decodes bytes as strict UTF-8 or as Latin-1, string by string", () => {
    const bytes = Buffer.from([0x5b, 0x22, 0xe9, 0x96, 0x22, 0x2c, 0x22, 0xef, 0xbf, 0xbd, 0x22, 0x5d]);
    expect(parse("", bytesSource(bytes, "latin-1"))).toEqual(["\u00e9\u0096", "\u00ef\u00bf\u00bd"]);
    expect(() => parse("", bytesSource(bytes, "utf-8"))).toThrow(/\(byte 2\): invalid UTF-8 in string/);
    // A real U+FFFD is text, not a decoding error; an encoded surrogate is refused, as Python's codec does.
    expect(parse("", bytesSource(Buffer.from('["\ufffd"]', "utf8"), "utf-8"))).toEqual(["\ufffd"]);
    expect(() => parse("", bytesSource(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]), "utf-8"))).toThrow(/invalid UTF-8/);
  });

  it("reads text in pieces, dropping what was released", () => {
    const pieces = ['[{"a": 1}, ', '{"b": [2', ", 3]}]"];
    const src = new StreamedText(pieces);
    const t = new JsonTokenizer(src, "t.json");
    expect(t.enterArray()).toBe(true);
    expect(t.value()).toEqual(new Map([["a", 1n]]));
    src.release(t.pos);
    expect(t.nextItem()).toBe(true);
    expect(t.value()).toEqual(new Map([["b", [2n, 3n]]]));
    expect(t.nextItem()).toBe(false);
    expect(t.peek()).toBe(-1);
  });
});

describe("JsonTokenizer layers", () => {
  it("validates without building when keep is false", () => {
    const t = new JsonTokenizer(textSource('{"a": [1, {"b": "x"}], "c": 2.5}'), "t.json");
    expect(t.value(0, false)).toEqual(new Map());
    expect(() => new JsonTokenizer(textSource('{"a": [1, {"b": x}]}'), "t.json").value(0, false)).toThrow(/expecting value/);
  });

  it("takes a dialect's literals, control characters and numbers", () => {
    const dialect = {
      ...PYTHON_JSON,
      literals: [...PYTHON_JSON.literals.filter(([w]) => w !== "NaN"), ["NaN", null] as const],
      rawControlChars: true,
      number: (t: JsonTokenizer) => `n:${t.asciiSince(t.scanNumber())}`,
    };
    const t = new JsonTokenizer(textSource('[NaN, "a\tb", 1.50]'), "t.json", { dialect });
    // Python's json.loads(strict=False) reads "a\tb" the same way.
    expect(t.document()).toEqual([null, "a\tb", "n:1.50"]);
  });

  it("maps keys and places errors as told", () => {
    const keys: string[] = [];
    const key = (k: string): string => (keys.push(k), k.toUpperCase());
    expect(new JsonTokenizer(textSource('{"a": {"b": 1}}'), "t.json", { key }).document()).toEqual(new Map([["A", new Map([["B", 1n]])]]));
    expect(keys).toEqual(["a", "b"]);
    const locate = (at: number): string => `near character ${at}`;
    expect(() => new JsonTokenizer(textSource("[1 2]"), "t.json", { locate }).document()).toThrow("t.json: invalid JSON near character 3: expecting ',' delimiter");
  });
});
