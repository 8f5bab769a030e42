import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BASELINE_SCRIPT, parseValidation } from "../../src/agents/baseline/index.js";
import { getCompetition, loadCompetition } from "../../src/competitions/registry.js";
import { competitionPaths } from "../../src/core/paths.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { prepareCompetition } from "../../src/prepare/prepare.js";
import { tempDir } from "../helpers/data-dir.js";

// Imported from src/, so this is the source copy of the program.
const SCRIPT = BASELINE_SCRIPT;
const dataDir = tempDir("mlebench-baseline-");
const IDS = ["titanic", "seattle-weather", "movie-ratings", "digits", "spam-assassin", "sotu-party", "caravan-insurance"];

beforeAll(async () => {
  for (const id of IDS) await prepareCompetition(getCompetition(id), dataDir);
}, 300_000);

function baseline(id: string, args: string[], out = tempDir()) {
  const r = spawnSync("/usr/bin/python3", [SCRIPT, ...args], {
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", MLEBENCH_DATA_DIR: competitionPaths(dataDir, id).public, MLEBENCH_SUBMISSION_DIR: out },
    timeout: 300_000,
  });
  return { ...r, submission: path.join(out, "submission.csv") };
}

describe("baseline.py plan", () => {
  const expected: Record<string, object> = {
    titanic: { id: "PassengerId", targets: ["Survived"], label: "Survived", kind: "label", modality: "tabular", metric: "accuracy" },
    "seattle-weather": { id: "id", targets: ["drizzle", "fog", "rain", "snow", "sun"], label: "weather", kind: "proba_multi", modality: "tabular", metric: "log_loss", lower_is_better: true },
    "movie-ratings": { id: "id", targets: ["imdb_rating"], label: "imdb_rating", kind: "regression", modality: "tabular", metric: "rmse" },
    digits: { id: "id", label: "label", kind: "proba_multi", modality: "image", metric: "log_loss", pixels: "<64 columns>" },
    "spam-assassin": { id: "id", targets: ["label"], label: "label", kind: "proba_binary", modality: "text", text: "text", metric: "roc_auc" },
    "sotu-party": { id: "id", targets: ["party"], label: "party", kind: "label", modality: "text", text: "text", metric: "f1_macro" },
    // No metric it knows (recall of the top fifth), but the sample's 0.5 for a 0/1 target asks for scores, not labels.
    "caravan-insurance": { id: "id", targets: ["CARAVAN"], label: "CARAVAN", kind: "proba_binary", modality: "tabular", metric: null },
  };
  it.each(IDS)("infers the task of %s from its files and description", (id) => {
    const r = baseline(id, ["plan"]);
    expect(r.status, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject(expected[id]);
    expect(plan.train).toBe("/" + path.relative("/", path.join(competitionPaths(dataDir, id).public, "train.csv")));
  });
});

/** A small Spaceship-Titanic-like task in a fresh folder: boolean labels, a sample submission in reverse test order. */
function spaceship() {
  const dir = tempDir();
  const rows = (n: number, offset: number) =>
    Array.from({ length: n }, (_, i) => {
      const k = i + offset;
      const age = (k * 37) % 80;
      const spa = (k * 53) % 1000;
      const planet = ["Earth", "Europa", "Mars"][k % 3];
      return { id: `${String(k).padStart(4, "0")}_01`, age, spa, planet, y: age < 30 !== spa > 500 };
    });
  const train = rows(600, 0);
  const test = rows(200, 600);
  fs.writeFileSync(path.join(dir, "train.csv"), "PassengerId,HomePlanet,Age,Spa,Transported\n" + train.map((r) => `${r.id},${r.planet},${r.age},${r.spa},${r.y ? "True" : "False"}`).join("\n") + "\n");
  fs.writeFileSync(path.join(dir, "test.csv"), "PassengerId,HomePlanet,Age,Spa\n" + test.map((r) => `${r.id},${r.planet},${r.age},${r.spa}`).join("\n") + "\n");
  const order = [...test].reverse();
  fs.writeFileSync(path.join(dir, "sample_submission.csv"), "PassengerId,Transported\n" + order.map((r) => `${r.id},False`).join("\n") + "\n");
  fs.writeFileSync(path.join(dir, "description.md"), "# Spaceship\n\n## Evaluation\n\nSubmissions are evaluated based on their classification accuracy.\n");
  return { dir, order };
}

describe("baseline.py fit", () => {
  it("each model level writes a valid titanic submission; the standard model beats priors", async () => {
    const scores: Record<string, number> = {};
    for (const model of ["auto", "linear", "prior"]) {
      const r = baseline("titanic", ["fit", "--model", model, "--budget", "60"]);
      expect(r.status, r.stderr).toBe(0);
      const report = gradeSubmission(await loadCompetition("titanic"), r.submission, dataDir);
      expect(report.valid_submission, report.invalid_reason ?? "").toBe(true);
      scores[model] = report.score as number;
    }
    expect(scores.auto).toBeGreaterThan(scores.prior);
    expect(scores.linear).toBeGreaterThan(scores.prior);
    expect(scores.auto).toBeGreaterThan(0.78);
  });

  it("priors are the training frequencies for class probabilities", () => {
    const r = baseline("seattle-weather", ["fit", "--model", "prior"]);
    expect(r.status, r.stderr).toBe(0);
    const lines = fs.readFileSync(r.submission, "utf8").trim().split("\n");
    expect(lines[0]).toBe("id,drizzle,fog,rain,snow,sun");
    const train = fs.readFileSync(path.join(competitionPaths(dataDir, "seattle-weather").public, "train.csv"), "utf8").trim().split("\n").slice(1);
    const sun = train.filter((l) => l.endsWith(",sun")).length / train.length;
    expect(Number(lines[1].split(",")[5])).toBeCloseTo(sun, 12);
  });

  it.each([
    ["movie-ratings", "rmse"],
    ["spam-assassin", "roc_auc"],
  ])("%s (regression / text) produces a valid submission", async (id, metric) => {
    const r = baseline(id, ["fit", "--budget", "60"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`cross-validation ${metric}: `);
    expect(gradeSubmission(await loadCompetition(id), r.submission, dataDir).valid_submission).toBe(true);
  });
});

describe("parseValidation", () => {
  it("reads the validation server's reply", () => {
    expect(parseValidation('{"result":"Submission is valid."}\n')).toEqual({ valid: true, message: "Submission is valid." });
    expect(parseValidation('{"result":"Submission invalid! x"}')).toEqual({ valid: false, message: "Submission invalid! x" });
    expect(parseValidation('{"error":"Busy"}')).toEqual({ valid: false, message: "Busy" });
    expect(parseValidation("")).toEqual({ valid: false, message: "no reply from the validation server" });
    expect(parseValidation("curl: (7) failed")).toEqual({ valid: false, message: "curl: (7) failed" });
  });
});

describe("baseline.py on an upstream-style tabular layout", () => {
  it("with no time left for a final fit, submits the mean of the fold models it has", () => {
    // A budget of a hundredth of a second is spent before the first fold ends, whatever the machine's
    // speed, so cross-validation stops there and no time is left for a final fit.
    const { dir, order } = spaceship();
    const out = tempDir();
    const r = spawnSync("/usr/bin/python3", [SCRIPT, "fit", "--model", "auto", "--budget", "0.01"], {
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", MLEBENCH_DATA_DIR: dir, MLEBENCH_SUBMISSION_DIR: out },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr + r.stdout).toMatch(/stopping cross-validation early[\s\S]*too little for a final fit .*averaging the 1 fold model\(s\)/);
    const predicted = fs.readFileSync(path.join(out, "submission.csv"), "utf8").trim().split("\n").slice(1).map((l) => l.split(",")[1]);
    const correct = predicted.filter((p, i) => p === String(order[i].y ? "True" : "False")).length;
    expect(correct / order.length).toBeGreaterThan(0.9);
  });

  it("reads fixed-width codes one character position at a time", () => {
    // The class is the letter at position 7 of a 12-letter code; as a whole string no value repeats.
    const dir = tempDir();
    const code = (k: number) => Array.from({ length: 12 }, (_, p) => "ACGT"[(k * (p + 3) + p * p + (k >> p)) % 4]).join("");
    const row = (k: number) => `${k},${code(k)}`;
    const label = (k: number) => (code(k)[6] === "A" || code(k)[6] === "C" ? "x" : "y");
    const ids = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);
    fs.writeFileSync(path.join(dir, "train.csv"), "id,code,kind\n" + ids(0, 800).map((k) => `${row(k)},${label(k)}`).join("\n") + "\n");
    fs.writeFileSync(path.join(dir, "test.csv"), "id,code\n" + ids(800, 1000).map(row).join("\n") + "\n");
    fs.writeFileSync(path.join(dir, "sample_submission.csv"), "id,kind\n" + ids(800, 1000).map((k) => `${k},x`).join("\n") + "\n");
    fs.writeFileSync(path.join(dir, "description.md"), "# Codes\n\n## Evaluation\n\nSubmissions are evaluated on accuracy.\n");
    const out = tempDir();
    const r = spawnSync("/usr/bin/python3", [SCRIPT, "fit", "--budget", "60"], {
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", MLEBENCH_DATA_DIR: dir, MLEBENCH_SUBMISSION_DIR: out },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr + r.stdout).toContain("features: 12");
    const lines = fs.readFileSync(path.join(out, "submission.csv"), "utf8").trim().split("\n").slice(1);
    const correct = lines.filter((l) => {
      const [id, kind] = l.split(",");
      return kind === label(Number(id));
    }).length;
    expect(correct / lines.length).toBeGreaterThan(0.95);
  });

  it("keeps boolean labels boolean and follows the sample submission's id order", () => {
    const { dir, order } = spaceship();
    const out = tempDir();
    const r = spawnSync("/usr/bin/python3", [SCRIPT, "fit", "--budget", "60"], {
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", MLEBENCH_DATA_DIR: dir, MLEBENCH_SUBMISSION_DIR: out },
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = fs.readFileSync(path.join(out, "submission.csv"), "utf8").trim().split("\n");
    expect(lines[0]).toBe("PassengerId,Transported");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(order.map((r) => r.id));
    const predicted = lines.slice(1).map((l) => l.split(",")[1]);
    expect(new Set(predicted)).toEqual(new Set(["True", "False"]));
    const correct = predicted.filter((p, i) => p === String(order[i].y ? "True" : "False")).length;
    expect(correct / order.length).toBeGreaterThan(0.9);
  });
  it("reads short sentences as text, and short phrases beside them as words of their own", () => {
    // Glosses of ten words (well under 100 characters) and two-word names; label a follows a word of the
    // name only, label b a word of the gloss only, so both columns must reach the model.
    const dir = tempDir();
    const heads = ["ash", "oak", "elm", "fir", "yew"];
    const nouns = ["tool", "bird", "song", "city", "rock"];
    const rows = Array.from({ length: 900 }, (_, k) => {
      const head = heads[(k * 7) % 5];
      const noun = nouns[(k * 3 + (k >> 2)) % 5];
      const name = `${head} n${k}`;
      const gloss = `a kind of ${noun} seen in the old north g${k}`;
      return { id: k + 1, name, gloss, a: head === "oak" ? 1 : 0, b: noun === "song" ? 1 : 0 };
    });
    const [train, test] = [rows.slice(0, 700), rows.slice(700)];
    const csv = (rs: typeof rows, labels: boolean) =>
      (labels ? "id,name,gloss,a,b\n" : "id,name,gloss\n") + rs.map((r) => [r.id, r.name, r.gloss, ...(labels ? [r.a, r.b] : [])].join(",")).join("\n") + "\n";
    fs.writeFileSync(path.join(dir, "train.csv"), csv(train, true));
    fs.writeFileSync(path.join(dir, "test.csv"), csv(test, false));
    fs.writeFileSync(path.join(dir, "sample_submission.csv"), "id,a,b\n" + test.map((r) => `${r.id},0.5,0.5`).join("\n") + "\n");
    fs.writeFileSync(path.join(dir, "description.md"), "# Kinds\n\n## Evaluation\n\nThe mean over label columns of the ROC AUC.\n");
    const env = { PATH: "/usr/bin:/bin", MLEBENCH_DATA_DIR: dir };
    const plan = spawnSync("/usr/bin/python3", [SCRIPT, "plan"], { encoding: "utf8", env });
    expect(plan.status, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ kind: "multilabel", modality: "text", text: "gloss", phrases: ["name"] });
    const out = tempDir();
    const r = spawnSync("/usr/bin/python3", [SCRIPT, "fit", "--budget", "60"], { encoding: "utf8", env: { ...env, MLEBENCH_SUBMISSION_DIR: out } });
    expect(r.status, r.stderr).toBe(0);
    const cells = fs.readFileSync(path.join(out, "submission.csv"), "utf8").trim().split("\n").slice(1).map((l) => l.split(",").map(Number));
    for (const [j, key] of [[1, "a"], [2, "b"]] as const) {
      const pos = cells.filter((_, i) => test[i][key] === 1).map((c) => c[j]);
      const neg = cells.filter((_, i) => test[i][key] === 0).map((c) => c[j]);
      expect(Math.min(...pos)).toBeGreaterThan(Math.max(...neg));
    }
  });

  it("fits one model per label column when several 0/1 labels can hold at once", () => {
    const dir = tempDir();
    const words = ["dog", "cat", "river", "stone", "engine", "wheel", "bread", "apple", "song", "drum"];
    // Label a holds when the text mentions an animal, b when it mentions a machine part; both can hold.
    const rows = Array.from({ length: 700 }, (_, k) => {
      const picked = [words[(k * 7) % 10], words[(k * 3 + 1) % 10], words[(k * 11 + 5) % 10]];
      const text = `${picked.join(" ")} ${"filler ".repeat(30)}item ${k}`;
      const a = picked.some((w) => w === "dog" || w === "cat") ? 1 : 0;
      const b = picked.some((w) => w === "engine" || w === "wheel") ? 1 : 0;
      return { id: k + 1, text, a, b };
    });
    const [train, test] = [rows.slice(0, 500), rows.slice(500)];
    fs.writeFileSync(path.join(dir, "train.csv"), "id,text,a,b\n" + train.map((r) => `${r.id},${r.text},${r.a},${r.b}`).join("\n") + "\n");
    fs.writeFileSync(path.join(dir, "test.csv"), "id,text\n" + test.map((r) => `${r.id},${r.text}`).join("\n") + "\n");
    fs.writeFileSync(path.join(dir, "sample_submission.csv"), "id,a,b\n" + test.map((r) => `${r.id},0.5,0.5`).join("\n") + "\n");
    fs.writeFileSync(path.join(dir, "description.md"), "# Tags\n\n## Evaluation\n\nThe mean over label columns of the ROC AUC.\n");
    const env = { PATH: "/usr/bin:/bin", MLEBENCH_DATA_DIR: dir };
    const plan = spawnSync("/usr/bin/python3", [SCRIPT, "plan"], { encoding: "utf8", env });
    expect(plan.status, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ kind: "multilabel", labels: ["a", "b"], modality: "text", text: "text", metric: "roc_auc" });
    for (const model of ["auto", "prior"]) {
      const out = tempDir();
      const r = spawnSync("/usr/bin/python3", [SCRIPT, "fit", "--model", model, "--budget", "60"], { encoding: "utf8", env: { ...env, MLEBENCH_SUBMISSION_DIR: out } });
      expect(r.status, r.stderr).toBe(0);
      const lines = fs.readFileSync(path.join(out, "submission.csv"), "utf8").trim().split("\n");
      expect(lines[0]).toBe("id,a,b");
      const cells = lines.slice(1).map((l) => l.split(",").map(Number));
      expect(cells.map((c) => c[0])).toEqual(test.map((r) => r.id));
      if (model === "prior") {
        // Priors are the training rate of each label.
        const rate = (key: "a" | "b") => train.filter((r) => r[key] === 1).length / train.length;
        expect(cells[0][1]).toBeCloseTo(rate("a"), 12);
        expect(cells[0][2]).toBeCloseTo(rate("b"), 12);
      } else {
        // The fitted models separate each label: every positive scores above every negative.
        for (const [j, key] of [[1, "a"], [2, "b"]] as const) {
          const pos = cells.filter((_, i) => test[i][key] === 1).map((c) => c[j]);
          const neg = cells.filter((_, i) => test[i][key] === 0).map((c) => c[j]);
          expect(Math.min(...pos)).toBeGreaterThan(Math.max(...neg));
        }
      }
    }
  });
});
