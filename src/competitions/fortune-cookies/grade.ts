import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossGrade } from "../../grading/one-hot-log-loss.js";

/**
 * The 22 collections of the fortune package that make up the classes, by their file names: the
 * answer and submission columns, in this (alphabetical) order.
 */
export const CLASSES = [
  "art",
  "computers",
  "cookie",
  "education",
  "food",
  "humorists",
  "kids",
  "law",
  "linux",
  "literature",
  "love",
  "men-women",
  "miscellaneous",
  "people",
  "platitudes",
  "politics",
  "science",
  "sports",
  "startrek",
  "wisdom",
  "work",
  "zippy",
];

/** Multi-class log loss over the collection probabilities, rows matched by `id`; rows must already sum to one. */
export function grade(submission: Table, answers: Answers): number {
  return oneHotLogLossGrade(submission, answers, CLASSES, "id");
}
