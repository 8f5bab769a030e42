import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/movielens-recommend/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { heldOutStart } from "../../src/competitions/movielens-recommend/prepare.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];

/** Each target user's held-out movies, from the private answers. */
function answerLists(): Map<number, number[]> {
  const answers = readCsv(path.join(p.private, "test.csv"));
  const users = numbers(answers, "userId");
  const movies = strings(answers, "movies");
  return new Map(users.map((u, i) => [u, movies[i]!.split(" ").map(Number)]));
}

/** Each user's rated movies in a public ratings file. */
function ratedBy(t: Table): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  const users = numbers(t, "userId");
  const movies = numbers(t, "movieId");
  users.forEach((u, i) => {
    if (!out.has(u)) out.set(u, new Set());
    out.get(u)!.add(movies[i]);
  });
  return out;
}

describe("movielens-recommend preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  // Counts from pandas on the prepared files; an independent script also matched every prepared
  // user to its source user (dslabs::movielens exported by R) by their (movieId, timestamp) pairs
  // and re-derived the held-out rule: every history and answer list agreed.
  it("publishes the other users whole and the target users' earlier ratings, users disjoint", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([36248, 51155]);
    for (const t of [train, test]) expect(t.columns).toEqual(["userId", "movieId", "rating", "timestamp"]);
    const trainUsers = new Set(numbers(train, "userId"));
    const testUsers = new Set(numbers(test, "userId"));
    expect([trainUsers.size, testUsers.size]).toEqual([268, 403]);
    expect([...testUsers].filter((u) => trainUsers.has(u))).toEqual([]);
    expect([...trainUsers, ...testUsers].sort((a, b) => a - b)).toEqual(Array.from({ length: 671 }, (_, i) => i + 1));
    // Sorted by user, then time.
    for (const t of [train, test]) {
      const u = numbers(t, "userId");
      const ts = numbers(t, "timestamp");
      let unsorted = 0;
      for (let i = 1; i < t.rowCount; i++) if (!(u[i] > u[i - 1] || (u[i] === u[i - 1] && ts[i] >= ts[i - 1]))) unsorted++;
      expect(unsorted).toBe(0);
    }
    const movies = readCsv(path.join(p.public, "movies.csv"));
    expect(movies.columns).toEqual(["movieId", "title", "year", "genres"]);
    expect(movies.rowCount).toBe(8242);
    const published = new Set([...numbers(train, "movieId"), ...numbers(test, "movieId")]);
    expect(new Set(numbers(movies, "movieId"))).toEqual(published);
  });

  it("holds out about the latest 20% of each target user's ratings, none of them already in the history", () => {
    const history = ratedBy(readCsv(path.join(p.public, "test.csv")));
    const answers = answerLists();
    expect([...answers.keys()]).toEqual([...history.keys()].sort((a, b) => a - b));
    let held = 0;
    let overQuota = 0;
    for (const [u, movies] of answers) {
      const seen = history.get(u)!;
      expect(movies.filter((m) => seen.has(m))).toEqual([]);
      expect(new Set(movies).size).toBe(movies.length);
      held += movies.length;
      if (movies.length > Math.round((movies.length + seen.size) * 0.2)) overQuota++;
    }
    expect(held).toBe(12601);
    // Three users' last rating second alone holds more than their 20% (pandas on the source).
    expect(overQuota).toBe(3);
    expect(answers.get(3)).toEqual([1544, 4022, 4033, 4034, 4310, 4638]);
  });

  it("starts the held-out period at whole rating times", () => {
    expect(heldOutStart([5, 1, 2, 3, 4, 6, 7, 8, 9, 10])).toBe(9);
    // At most two of ten may be held out: the two ratings at 8 would make three, so only the 10 is.
    expect(heldOutStart([1, 2, 3, 4, 5, 6, 7, 8, 8, 10])).toBe(10);
    // The last second alone holds three: it is held out all the same.
    expect(heldOutStart([1, 2, 3, 4, 5, 6, 7, 9, 9, 9])).toBe(9);
  });
});

describe("movielens-recommend grader", () => {
  const sample = () => fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");

  it("grades the sample submission as the oracle does, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    // The oracle's ml_metrics-style mapk on the same lists: 0.00790140415140415.
    expect(report.score).toBe(0.0079);
    expect(report.is_lower_better).toBe(false);
    expect(report.any_medal).toBe(false);
  });

  it("scores the ten most rated unseen movies and a list with repeats as the oracle does", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    const count = new Map<number, number>();
    for (const m of [...numbers(train, "movieId"), ...numbers(test, "movieId")]) count.set(m, (count.get(m) ?? 0) + 1);
    const order = [...count.keys()].sort((a, b) => count.get(b)! - count.get(a)! || a - b);
    const history = ratedBy(test);
    const popular = [...history.keys()].map((u) => `${u},${order.filter((m) => !history.get(u)!.has(m)).slice(0, 10).join(" ")}`);
    expect(popular[0]).toBe("1,356 296 318 593 260 480 2571 1 527 589");
    // mapk over the same lists (pandas value_counts, ties by movieId): 0.03747663850486431.
    expect(grade("popular", ["userId,movies", ...popular].join("\n") + "\n").score).toBe(0.03748);

    const answers = answerLists();
    const partial = [...answers].map(([u, m]) => `${u},999999 ${m[0]} ${m[0]} 999999 ${m.slice(1, 3).join(" ")}`.trimEnd());
    // mapk with repeats counted once: 0.1869216983733113.
    const report = grade("partial", ["userId,extra,movies", ...partial.map((r) => r.replace(",", ",x,"))].join("\n") + "\n");
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.18692);
    expect(grade("perfect", fs.readFileSync(path.join(p.private, "test.csv"), "utf8")).score).toBe(1);
  });

  it("reads only the first ten movies and allows an empty list", () => {
    const answers = answerLists();
    const rows = [...answers].map(([u, m]) => (u === 1 ? `${u},` : `${u},${[...Array(10).fill(999999), ...m].join(" ")}`));
    const report = grade("late", ["userId,movies", ...rows].join("\n") + "\n");
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0);
  });

  it("rejects missing users, unknown users and non-ids with clear reasons", () => {
    const [header, ...rows] = sample();
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
    expect(short.invalid_reason).toBe("Submission has 402 rows but the answers have 403; submit one row per target user.");
    const unknown = grade("unknown", [header, "2,1 2 3", ...rows.slice(1)].join("\n") + "\n");
    expect(unknown.valid_submission).toBe(false);
    expect(unknown.invalid_reason).toMatch(/^Submission "userId" values do not match the answers \(1 of 403 answer ids have no matching row\)/);
    const text = grade("text", [header, "1,1 toy-story 3", ...rows.slice(1)].join("\n") + "\n");
    expect(text.invalid_reason).toBe('Column "movies" must hold movie ids separated by spaces, but submission data row 1 (userId 1) holds "toy-story".');
    const noColumn = grade("no-column", ["userId,prediction", ...rows].join("\n") + "\n");
    expect(noColumn.invalid_reason).toBe('Submission must have a "movies" column; found "userId", "prediction".');
  });
});
