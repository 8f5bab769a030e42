import { UserError } from "../../core/errors.js";
import type { ResearchTask } from "./types.js";
import { spamTask } from "./spam/index.js";
import { titanicTask } from "./titanic/index.js";
import { vectorizationTask } from "./vectorization/index.js";

/** Every research task, by name. */
export const TASKS: readonly ResearchTask[] = [vectorizationTask, titanicTask, spamTask];

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
