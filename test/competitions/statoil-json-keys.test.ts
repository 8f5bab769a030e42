import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scanListKeys, scanListKeysInText } from "../../src/competitions/statoil-iceberg-classifier-challenge/json-keys.js";
import { tempDir } from "../helpers/data-dir.js";

/** Keys per object, with the text fed whole and split at every position (chunk edges anywhere). */
function keys(text: string): string[][] {
  const whole: string[][] = [];
  scanListKeysInText([text], "t.json", (k) => whole.push(k));
  for (let cut = 0; cut <= text.length; cut++) {
    const split: string[][] = [];
    scanListKeysInText([text.slice(0, cut), text.slice(cut)], "t.json", (k) => split.push(k));
    expect(split).toEqual(whole);
  }
  return whole;
}

describe("scanListKeys", () => {
  it("gives each sample's keys as a Python dict keeps them, ignoring nested objects", () => {
    const text = ' [{"id": "a1", "band_1": [-1.5, 2e-3, NaN, -Infinity], "x": {"inner": 1}, "id": "b"},\n{"k\\u00e9y": null, "t": true} ] ';
    expect(keys(text)).toEqual([["id", "band_1", "x"], ["k\u00e9y", "t"]]);
    expect(keys("[]")).toEqual([]);
  });

  it("refuses what Python's json.loads refuses", () => {
    const bad = [
      '[{"a": 1},]',
      '[{"a": 01}]',
      '[{"a": "x\ny"}]',
      '[{"a": "\\x"}]',
      '[{"a": 1}',
      '[{"a": 1}] 5',
      '[{"a" 1}]',
      '[1, 2]',
      '{"a": 1}',
      '[{"a": tru}]',
      '[{"a": .5}]',
    ];
    for (const b of bad) expect(() => scanListKeysInText([b], "t.json", () => undefined), b).toThrow(/t\.json: /);
  });

  it("reads files, refusing a byte order mark and invalid UTF-8", () => {
    const dir = tempDir();
    const ok = path.join(dir, "ok.json");
    fs.writeFileSync(ok, '[{"id": "é", "v": [1]}, {"v": [], "id": "x"}]');
    const seen: string[][] = [];
    expect(scanListKeys(ok, (k) => seen.push(k))).toBe(2);
    expect(seen).toEqual([["id", "v"], ["v", "id"]]);
    fs.writeFileSync(path.join(dir, "bom.json"), "\ufeff[]");
    expect(() => scanListKeys(path.join(dir, "bom.json"), () => undefined)).toThrow(/byte order mark/);
    fs.writeFileSync(path.join(dir, "bad.json"), Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]));
    expect(() => scanListKeys(path.join(dir, "bad.json"), () => undefined)).toThrow(/not valid UTF-8/);
  });
});
