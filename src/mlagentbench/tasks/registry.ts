import { UserError } from "../../core/errors.js";
import type { ResearchTask } from "./types.js";
import { fashionMnistTask } from "./fashion-mnist/index.js";
import { bostonHousingTask } from "./boston-housing/index.js";
import { spamTask } from "./spam/index.js";
import { titanicTask } from "./titanic/index.js";
import { vectorizationTask } from "./vectorization/index.js";
import { KAGGLE_TASKS } from "./kaggle-tasks.js";
import { URL_TASKS } from "./url-tasks.js";

/** Tasks that run with no download, built on installed datasets. */
export const OFFLINE_TASKS: readonly ResearchTask[] = [
  vectorizationTask,
  titanicTask,
  spamTask,
  bostonHousingTask,
  fashionMnistTask,
];

/** Every research task, by name: the offline ones first, then those that need a download. */
export const TASKS: readonly ResearchTask[] = [...OFFLINE_TASKS, ...KAGGLE_TASKS, ...URL_TASKS];

/** The names of all research tasks. */
export function taskNames(): string[] {
  return TASKS.map((t) => t.name);
}

/** The research task called `name`; a UserError listing the known names when there is none. */
export function getTask(name: string): ResearchTask {
  const task = TASKS.find((t) => t.name === name);
  if (!task) throw new UserError(`Unknown research task "${name}". Known tasks: ${taskNames().join(", ")}`);
  return task;
}
