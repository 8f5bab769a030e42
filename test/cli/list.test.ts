import { describe, expect, it } from "vitest";
import { mlebench } from "../helpers/cli.js";
import { fixtureDataDir } from "../helpers/data-dir.js";

describe("mlebench list", () => {
  const dataDir = fixtureDataDir(["spooky-author-identification"]);

  it("lists every graded competition with metric and prepared state as JSON", () => {
    const r = mlebench(["list", "--data-dir", dataDir, "--json"]);
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout) as { id: string; metric: string; prepared: boolean; gradable: boolean }[];
    expect(rows.map((x) => x.id).sort()).toEqual([
      "aerial-cactus-identification",
      "aptos2019-blindness-detection",
      "digits",
      "dogs-vs-cats-redux-kernels-edition",
      "fashion-mnist",
      "h-and-m-personalized-fashion-recommendations",
      "movie-ratings",
      "new-york-city-taxi-fare-prediction",
      "seattle-weather",
      "sotu-party",
      "spaceship-titanic",
      "spam-assassin",
      "spooky-author-identification",
      "titanic",
    ]);
    const spooky = rows.find((x) => x.id === "spooky-author-identification")!;
    expect(spooky).toMatchObject({ metric: "multi-class-log-loss", prepared: true, gradable: true });
    expect(rows.filter((x) => x.prepared)).toHaveLength(1);
  });

  it("filters by split and rejects an unknown split with exit 2", () => {
    const r = mlebench(["list", "--split", "dev", "--json", "--data-dir", dataDir]);
    expect(JSON.parse(r.stdout).map((x: { id: string }) => x.id)).toEqual(["spaceship-titanic"]);
    const offline = mlebench(["list", "--split", "offline", "--json", "--data-dir", dataDir]);
    expect(JSON.parse(offline.stdout).map((x: { id: string }) => x.id)).toEqual(["titanic", "seattle-weather", "movie-ratings", "digits", "spam-assassin", "sotu-party", "fashion-mnist"]);
    const bad = mlebench(["list", "--split", "nope"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Unknown split "nope"; known splits: low, lite, medium, high, split75, offline, dev/);
  });

  it("summarises each command in the top-level help", () => {
    const r = mlebench(["--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/grade-sample \[options\] <submission> <competition-id> +grade one submission CSV/);
    expect(r.stdout).toMatch(/grade \[options\] +grade many submissions/);
  });
});
