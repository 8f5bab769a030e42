import { describe, expect, it } from "vitest";
import { CATALOG, CATALOG_SOURCE, catalogEntry, upstreamCompetition } from "../../src/competitions/catalog.js";
import { COMPETITIONS, getCompetition } from "../../src/competitions/registry.js";
import { DEV, HIGH, LOW, MEDIUM, OFFLINE, OFFLINE_LITE, SPLITS } from "../../src/competitions/splits.js";

describe("upstream competition catalog", () => {
  it("holds exactly the upstream ids of the splits, sorted, 75 + 7 dev", () => {
    const ids = CATALOG.map((e) => e.id);
    const splitIds = [...LOW, ...MEDIUM, ...HIGH, ...DEV];
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...splitIds].sort());
    expect(ids).toEqual([...ids].sort());
    expect(CATALOG.filter((e) => !e.dev)).toHaveLength(75);
    expect(CATALOG.filter((e) => e.dev).map((e) => e.id)).toEqual([...DEV].sort());
  });

  it("derives complexity and dev from the split lists", () => {
    for (const [tier, ids] of [["low", LOW], ["medium", MEDIUM], ["high", HIGH]] as const) {
      for (const id of ids) expect(catalogEntry(id), id).toMatchObject({ complexity: tier, dev: false });
    }
    for (const id of DEV) expect(catalogEntry(id), id).toMatchObject({ complexity: null, dev: true });
  });

  it("matches upstream's configs field by field for a few competitions", () => {
    expect(catalogEntry("spaceship-titanic")).toEqual({
      id: "spaceship-titanic",
      name: "Spaceship Titanic",
      type: "simple",
      awardsMedals: false,
      answers: "test.csv",
      sampleSubmission: "sample_submission.csv",
      grader: "accuracy",
      goldSubmission: null,
      complexity: null,
      dev: true,
      category: null,
    });
    expect(catalogEntry("aerial-cactus-identification")).toMatchObject({
      type: "code",
      grader: "auc-roc",
      complexity: "low",
      dev: false,
      category: "Image Classification",
    });
    expect(catalogEntry("detecting-insults-in-social-commentary")).toMatchObject({
      type: "simple",
      awardsMedals: true,
      answers: "test.csv",
      sampleSubmission: "sample_submission_null.csv",
      goldSubmission: "gold_submission.csv",
    });
    expect(catalogEntry("vesuvius-challenge-ink-detection")).toMatchObject({
      answers: "inklabels_rle.csv",
      goldSubmission: "gold_submission.csv",
      complexity: "high",
    });
    expect(catalogEntry("the-icml-2013-whale-challenge-right-whale-redux")?.sampleSubmission).toBe("sampleSubmission.csv");
    // Upstream keeps this sample submission in private/, so the path climbs out of public/.
    expect(catalogEntry("statoil-iceberg-classifier-challenge")?.sampleSubmission).toBe("../private/sample_submission.csv");
    expect(catalogEntry("no-such-competition")).toBeUndefined();
  });

  it("names a gold submission for exactly the eight configs that have one", () => {
    expect(CATALOG.filter((e) => e.goldSubmission !== null).map((e) => e.id)).toEqual([
      "detecting-insults-in-social-commentary",
      "hms-harmful-brain-activity-classification",
      "hubmap-kidney-segmentation",
      "kuzushiji-recognition",
      "tabular-playground-series-may-2022",
      "tensorflow2-question-answering",
      "vesuvius-challenge-ink-detection",
      "vinbigdata-chest-xray-abnormalities-detection",
    ]);
  });

  it("agrees with every upstream competition in the registry on paths, type and grader", () => {
    const upstream = [...COMPETITIONS.values()].filter((c) => catalogEntry(c.id));
    expect(upstream.length).toBeGreaterThan(0);
    for (const c of upstream) {
      const e = catalogEntry(c.id)!;
      expect({ id: c.id, answers: c.answers, sampleSubmission: c.sampleSubmission, type: c.type, metric: c.metric }).toEqual({
        id: e.id,
        answers: e.answers,
        sampleSubmission: e.sampleSubmission,
        type: e.type,
        metric: e.grader,
      });
    }
    // Offline competitions are this project's own, so upstream must not know them.
    for (const id of OFFLINE) expect(catalogEntry(id), id).toBeUndefined();
  });

  it("was generated from upstream at the pinned commit", () => {
    expect(CATALOG_SOURCE).toEqual({ repository: "openai/mle-bench", commit: "783b15af77404fbaffe7255b0c4a934b46153389" });
  });

  it("is each upstream folder's metadata: the folder adds its grader and only what upstream leaves unstated", () => {
    const grader = async () => ({ grade: () => 0.5 });
    expect(upstreamCompetition("spaceship-titanic", { grader, category: "Tabular" })).toEqual({
      id: "spaceship-titanic",
      name: "Spaceship Titanic",
      type: "simple",
      category: "Tabular",
      metric: "accuracy",
      answers: "test.csv",
      sampleSubmission: "sample_submission.csv",
      grader,
    });
    expect(upstreamCompetition("aerial-cactus-identification", { grader })).toMatchObject({ complexity: "low", category: "Image Classification" });
    expect(getCompetition("tensorflow2-question-answering").answersFields).toEqual(["example_id", "annotations"]);
    expect(() => upstreamCompetition("no-such-competition", { grader })).toThrow(
      'src/competitions/no-such-competition: upstream has no competition "no-such-competition"',
    );
    expect(() => upstreamCompetition("aerial-cactus-identification", { grader, category: "Tabular" })).toThrow(
      'category "Tabular" restates upstream\'s "Image Classification"',
    );
  });

  it("is the offline split: every folder with an offline spec, ordered by its offline.order", () => {
    const offline = [...COMPETITIONS.values()].filter((c) => c.offline);
    expect([...OFFLINE].sort()).toEqual(offline.map((c) => c.id).sort());
    const orders = OFFLINE.map((id) => getCompetition(id).offline!.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(new Set(orders).size).toBe(orders.length);
    // The demo's order of the first seven, which its output and the docs show.
    expect(OFFLINE.slice(0, 7)).toEqual(["titanic", "seattle-weather", "movie-ratings", "digits", "spam-assassin", "sotu-party", "fashion-mnist"]);
  });

  it("has the offline-lite subset (the lite-marked folders, in the split's order) and the offline tiers", () => {
    expect(OFFLINE_LITE).toEqual(OFFLINE.filter((id) => getCompetition(id).offline!.lite === true));
    expect(OFFLINE_LITE.length).toBeGreaterThanOrEqual(7);
    expect(SPLITS["offline-lite"]).toBe(OFFLINE_LITE);
    const tiers = ["offline-low", "offline-medium", "offline-high"].map((s) => SPLITS[s]);
    expect(tiers.flat().sort()).toEqual([...OFFLINE].sort());
    tiers.forEach((ids, i) => expect(ids.every((id) => getCompetition(id).complexity === ["low", "medium", "high"][i])).toBe(true));
  });

  it("rejects an unknown id with close matches", () => {
    expect(() => getCompetition("no-such-competition")).toThrow(/Unknown competition "no-such-competition"/);
    expect(() => getCompetition("icecube")).toThrow(/Did you mean: icecube-neutrinos-in-deep-ice\?/);
  });
});
