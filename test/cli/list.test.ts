import { describe, expect, it } from "vitest";
import { DEV, HIGH, LOW, MEDIUM, OFFLINE, OFFLINE_LITE } from "../../src/competitions/splits.js";
import { mlebench } from "../helpers/cli.js";
import { fixtureDataDir } from "../helpers/data-dir.js";

describe("mlebench list", () => {
  const dataDir = fixtureDataDir(["spooky-author-identification"]);

  it("lists every graded competition with metric and prepared state as JSON", () => {
    const r = mlebench(["list", "--data-dir", dataDir, "--json"]);
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout) as { id: string; metric: string; prepared: boolean; gradable: boolean }[];
    // Every upstream competition (75 + 7 dev) has a grader, and so does the offline benchmark.
    expect(rows.map((x) => x.id).sort()).toEqual([...LOW, ...MEDIUM, ...HIGH, ...DEV, ...OFFLINE].sort());
    const spooky = rows.find((x) => x.id === "spooky-author-identification")!;
    expect(spooky).toMatchObject({ metric: "multi-class-log-loss", prepared: true, gradable: true });
    expect(rows.filter((x) => x.prepared)).toHaveLength(1);
  });

  it("filters by split and rejects an unknown split with exit 2", () => {
    const r = mlebench(["list", "--split", "dev", "--json", "--data-dir", dataDir]);
    expect(JSON.parse(r.stdout).map((x: { id: string }) => x.id)).toEqual([...DEV]);
    const offline = mlebench(["list", "--split", "offline", "--json", "--data-dir", dataDir]);
    expect(JSON.parse(offline.stdout).map((x: { id: string }) => x.id)).toEqual([...OFFLINE]);
    const bad = mlebench(["list", "--split", "nope"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('Unknown split "nope"; known splits: low, lite, medium, high, split75, dev, systemcard, offline, offline-lite, offline-low, offline-medium, offline-high.');
    const lite = mlebench(["list", "--split", "offline-lite", "--json", "--data-dir", dataDir]);
    expect(JSON.parse(lite.stdout).map((x: { id: string }) => x.id)).toEqual([...OFFLINE_LITE]);
  });

  it("lists upstream's 30-competition systemcard split in upstream's order", () => {
    // experiments/splits/systemcard.txt at the pinned upstream commit.
    const upstream = [
    "aptos2019-blindness-detection",
    "billion-word-imputation",
    "bms-molecular-translation",
    "cassava-leaf-disease-classification",
    "champs-scalar-coupling",
    "freesound-audio-tagging-2019",
    "h-and-m-personalized-fashion-recommendations",
    "hms-harmful-brain-activity-classification",
    "hotel-id-2021-fgvc8",
    "hubmap-kidney-segmentation",
    "imet-2020-fgvc7",
    "jigsaw-unintended-bias-in-toxicity-classification",
    "kuzushiji-recognition",
    "mlsp-2013-birds",
    "multi-modal-gesture-recognition",
    "new-york-city-taxi-fare-prediction",
    "nfl-player-contact-detection",
    "nomad2018-predict-transparent-conductors",
    "osic-pulmonary-fibrosis-progression",
    "petfinder-pawpularity-score",
    "plant-pathology-2021-fgvc8",
    "smartphone-decimeter-2022",
    "spooky-author-identification",
    "stanford-covid-vaccine",
    "tensorflow2-question-answering",
    "tweet-sentiment-extraction",
    "us-patent-phrase-to-phrase-matching",
    "uw-madison-gi-tract-image-segmentation",
    "ventilator-pressure-prediction",
    "whale-categorization-playground",
    ];
    const r = mlebench(["list", "--split", "systemcard", "--json", "--data-dir", dataDir]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).map((x: { id: string }) => x.id)).toEqual(upstream);
    const all = JSON.parse(mlebench(["list", "--all", "--split", "systemcard", "--json", "--data-dir", dataDir]).stdout) as { id: string; grader: boolean }[];
    expect(all.map((x) => x.id)).toEqual(upstream);
    const text = mlebench(["list", "--split", "systemcard", "--data-dir", dataDir]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^spooky-author-identification +.*multi-class-log-loss/m);
    expect(text.stdout).not.toMatch(/^aerial-cactus-identification /m);
  });

  it("keeps the default JSON rows free of the --all fields", () => {
    const rows = JSON.parse(mlebench(["list", "--data-dir", dataDir, "--json"]).stdout) as Record<string, unknown>[];
    expect(Object.keys(rows[0]).sort()).toEqual(["category", "complexity", "gradable", "grader", "id", "metric", "name", "prepared"]);
    expect(rows.every((r) => r.grader === true)).toBe(true);
  });

  it("lists every upstream competition and the offline ones with a status under --all", () => {
    const r = mlebench(["list", "--all", "--json", "--data-dir", dataDir]);
    expect(r.status).toBe(0);
    type AllRow = { id: string; status: string; grader: boolean; dev: boolean; metric: string; prepared: boolean; gradable: boolean; complexity: string | null };
    const rows = JSON.parse(r.stdout) as AllRow[];
    expect(rows).toHaveLength(82 + OFFLINE.length);
    const byId = new Map(rows.map((x) => [x.id, x]));
    expect(byId.get("spooky-author-identification")).toMatchObject({ status: "ready", grader: true, dev: false, prepared: true, gradable: true });
    expect(byId.get("aerial-cactus-identification")).toMatchObject({ status: "not prepared", grader: true, dev: false, prepared: false, metric: "auc-roc" });
    expect(byId.get("spaceship-titanic")).toMatchObject({ status: "not prepared", grader: true, dev: true, complexity: null, preparer: true });
    expect(byId.get("aptos2019-blindness-detection")).toMatchObject({ preparer: true });
    expect(byId.get("dogs-vs-cats-redux-kernels-edition")).toMatchObject({ preparer: true });
    expect(byId.get("titanic")).toMatchObject({ preparer: true });
    expect(byId.get("denoising-dirty-documents")).toMatchObject({
      status: "not prepared",
      preparer: true,
      grader: true,
      complexity: "low",
      metric: "root_mean_squared_error", // upstream spells this one with underscores
    });
    expect(byId.get("vesuvius-challenge-ink-detection")).toMatchObject({
      status: "not prepared",
      preparer: true,
      grader: true,
      dev: false,
      complexity: "high",
      gradable: false,
    });
    expect(byId.get("titanic")).toMatchObject({ status: "not prepared", grader: true, dev: false });
    expect(rows.every((x) => x.grader)).toBe(true);
    expect(rows.filter((x) => x.dev)).toHaveLength(7);
  });

  it("prints a status column and a tally under --all, and honours --split", () => {
    const r = mlebench(["list", "--all", "--data-dir", dataDir]);
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^id +status +preparer +complexity +category +metric$/);
    expect(r.stdout).toMatch(/^spooky-author-identification +ready +yes +low +Text Classification +multi-class-log-loss$/m);
    expect(r.stdout).toMatch(/^vesuvius-challenge-ink-detection +not prepared +yes +high /m);
    expect(r.stdout).toMatch(/^playground-series-s3e18 +not prepared +yes +dev /m);
    expect(r.stdout).toMatch(new RegExp(`^${(82 + OFFLINE.length)} competitions: 1 ready, ${(82 + OFFLINE.length) - 1} not prepared; data dir: `, "m"));
    const dev = JSON.parse(mlebench(["list", "--all", "--split", "dev", "--json", "--data-dir", dataDir]).stdout) as { id: string; status: string }[];
    expect(dev.map((x) => x.id)).toEqual([
      "invasive-species-monitoring", "ml2021spring-hw2", "movie-review-sentiment-analysis-kernels-only",
      "paddy-disease-classification", "plant-seedlings-classification", "playground-series-s3e18", "spaceship-titanic",
    ]);
    expect(dev.every((x) => x.status === "not prepared")).toBe(true);
    const bad = mlebench(["list", "--all", "--split", "nope"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Unknown split "nope"/);
  });

  it("summarises each command in the top-level help", () => {
    const r = mlebench(["--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/grade-sample \[options\] <submission> <competition-id> +grade one submission CSV/);
    expect(r.stdout).toMatch(/grade \[options\] +grade many submissions/);
  });
});
