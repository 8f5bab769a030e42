import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { parseCsv } from "../../src/io/csv-read.js";
import { copyListed, copyListedFiles } from "../../src/prepare/copy-listed.js";
import { tempDir } from "../helpers/data-dir.js";

function rawFolder(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

function listing(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

describe("copyListedFiles", () => {
  it("copies <id><suffix> for each row, ints written as pandas reads them", () => {
    const from = rawFolder({ "7.jpg": "seven", "12.jpg": "twelve", "3.jpg": "unlisted" });
    const to = path.join(tempDir(), "out", "train");
    copyListedFiles(parseCsv("id,label\n12,a\n7,b\n"), "id", { from, to, suffix: ".jpg", listedIn: "train.csv" });
    expect(listing(to)).toEqual(["12.jpg", "7.jpg"]);
    expect(fs.readFileSync(path.join(to, "7.jpg"), "utf8")).toBe("seven");
  });

  it("makes the destination even when no row lists a file", () => {
    const to = path.join(tempDir(), "empty");
    copyListedFiles(parseCsv("id\n"), "id", { from: tempDir(), to, listedIn: "x.csv" });
    expect(fs.statSync(to).isDirectory()).toBe(true);
  });

  it("names the listing, and the note, when a listed file is missing", () => {
    const from = rawFolder({ "a.png": "" });
    const run = () =>
      copyListedFiles(parseCsv("id\na\nb\n"), "id", { from, to: tempDir(), suffix: ".png", listedIn: "train.csv", note: "expected in images.zip" });
    expect(run).toThrow(UserError);
    expect(run).toThrow(`${path.join(from, "b.png")} is missing (listed in train.csv, expected in images.zip)`);
  });

  it("names the file when the id column is absent", () => {
    expect(() => copyListedFiles(parseCsv("name\nx\n"), "id", { from: tempDir(), to: tempDir(), listedIn: "f.csv" })).toThrow(/f\.csv: no column "id" \(columns: name\)/);
  });
});

describe("copyListed", () => {
  it("saves under the new id when renamed", () => {
    const from = rawFolder({ "old_1.jpg": "one" });
    const to = tempDir();
    copyListed(["old_1"], { from, to, suffix: ".jpg", listedIn: "train.csv", rename: (id) => id.replace("old", "Train") });
    expect(listing(to)).toEqual(["Train_1.jpg"]);
  });

  it("keeps Kaggle's nesting on both sides when told where a file lives", () => {
    const from = rawFolder({ "a/b/abc.npy": "x" });
    const to = tempDir();
    copyListed(["abc"], { from, to, listedIn: "labels.csv", at: (id) => path.join(id[0], id[1], `${id}.npy`) });
    expect(fs.readFileSync(path.join(to, "a", "b", "abc.npy"), "utf8")).toBe("x");
  });
});
