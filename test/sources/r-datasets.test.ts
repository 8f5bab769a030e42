import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { materializeSources, resolveSource } from "../../src/sources/packages.js";
import { exportRDataset, rLibraryDir } from "../../src/sources/r-datasets.js";
import { tempDir } from "../helpers/data-dir.js";

const md5 = (file: string) => crypto.createHash("md5").update(fs.readFileSync(file)).digest("hex");
const airquality = { kind: "r", package: "r-base-core", library: "datasets", dataset: "airquality" } as const;

describe("R dataset sources", () => {
  it("exports a data frame as write.csv does: header, no row names, empty cells for NA", () => {
    const out = path.join(tempDir("mlebench-r-"), "aq.csv");
    exportRDataset(airquality, out);
    const lines = fs.readFileSync(out, "utf8").split("\n");
    expect(lines.slice(0, 6)).toEqual(['"Ozone","Solar.R","Wind","Temp","Month","Day"', "41,190,7.4,67,5,1", "36,118,8,72,5,2", "12,149,12.6,74,5,3", "18,313,11.5,62,5,4", ",,14.3,56,5,5"]);
    expect(lines).toHaveLength(155); // 153 days, the header and the final newline
    // The same bytes as the documented R program run by hand (Rscript --vanilla -e ... datasets airquality airquality out.csv).
    expect(md5(out)).toBe("d372208db3a6b3a79c8309c38423bc0b");
  });

  it("loads an object through another data() topic, and quotes factor levels", () => {
    const out = path.join(tempDir("mlebench-r-"), "iris.csv");
    exportRDataset({ kind: "r", package: "r-base-core", library: "datasets", topic: "iris", dataset: "iris" }, out);
    const lines = fs.readFileSync(out, "utf8").trim().split("\n");
    expect(lines[0]).toBe('"Sepal.Length","Sepal.Width","Petal.Length","Petal.Width","Species"');
    expect(lines[1]).toBe('5.1,3.5,1.4,0.2,"setosa"');
    expect(lines).toHaveLength(151);
  });

  it("materializes R sources into the scratch folder and resolves the others in place", () => {
    const scratch = tempDir("mlebench-r-");
    const paths = materializeSources({ aq: airquality }, scratch);
    expect(paths).toEqual({ aq: path.join(scratch, "aq.csv") });
    expect(md5(paths.aq)).toBe("d372208db3a6b3a79c8309c38423bc0b");
    // What the sandbox hides is the R package's folder.
    expect(resolveSource(airquality)).toBe(rLibraryDir(airquality));
    expect(fs.existsSync(path.join(rLibraryDir(airquality), "DESCRIPTION"))).toBe(true);
  });

  it("names the Debian package when the R package is missing, and the object when data() lacks it", () => {
    const missing = { kind: "r", package: "r-cran-nosuch", library: "nosuchpkg", dataset: "x" } as const;
    expect(() => rLibraryDir(missing)).toThrow(UserError);
    expect(() => rLibraryDir(missing)).toThrow(/R package nosuchpkg \(dataset x\) is not installed: it ships in the Debian package r-cran-nosuch/);
    const out = path.join(tempDir("mlebench-r-"), "x.csv");
    expect(() => exportRDataset({ ...airquality, dataset: "nosuchobject" }, out)).toThrow(/exporting datasets::nosuchobject with Rscript failed: .*does not define nosuchobject/);
    expect(fs.existsSync(out)).toBe(false);
  });
});
