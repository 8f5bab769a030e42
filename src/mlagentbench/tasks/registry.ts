import { UserError } from "../../core/errors.js";
import type { ResearchTask } from "./types.js";

type Loader = () => Promise<ResearchTask>;

/**
 * Every research task by name, in list order (those that run offline first, then those whose data
 * is downloaded from Kaggle, then from public URLs), with the import of its module: a command
 * loads only the tasks it names. A test checks each loader gives the task of its name.
 */
const LOADERS: ReadonlyMap<string, Loader> = new Map<string, Loader>([
  ["vectorization", async () => (await import("./vectorization/index.js")).vectorizationTask],
  ["titanic", async () => (await import("./titanic/index.js")).titanicTask],
  ["spam", async () => (await import("./spam/index.js")).spamTask],
  ["boston-housing", async () => (await import("./boston-housing/index.js")).bostonHousingTask],
  ["fashion-mnist", async () => (await import("./fashion-mnist/index.js")).fashionMnistTask],
  ["house-price", async () => (await import("./house-price/index.js")).housePriceTask],
  ["spaceship-titanic", async () => (await import("./spaceship-titanic/index.js")).spaceshipTitanicTask],
  ["parkinsons", async () => (await import("./parkinsons/index.js")).parkinsonsTask],
  ["feedback", async () => (await import("./feedback/index.js")).feedbackTask],
  ["identify-contrails", async () => (await import("./identify-contrails/index.js")).identifyContrailsTask],
  ["fathomnet", async () => (await import("./fathomnet/index.js")).fathomnetTask],
  ["cifar10", async () => (await import("./cifar10/index.js")).cifar10Task],
  ["imdb", async () => (await import("./imdb/index.js")).imdbTask],
  ["ogbn-arxiv", async () => (await import("./ogbn-arxiv/index.js")).ogbnArxivTask],
  ["clrs", async () => (await import("./clrs/index.js")).clrsTask],
  ["babylm", async () => (await import("./babylm/index.js")).babylmTask],
  ["llama-inference", async () => (await import("./llama-inference/index.js")).llamaInferenceTask],
]);

/** The names of all research tasks, in list order. */
export function taskNames(): string[] {
  return [...LOADERS.keys()];
}

/** The research task called `name`, its module imported; a UserError listing the known names when there is none. */
export async function getTask(name: string): Promise<ResearchTask> {
  const load = LOADERS.get(name);
  if (!load) throw new UserError(`Unknown research task "${name}". Known tasks: ${taskNames().join(", ")}`);
  return load();
}

/** Every research task, in list order. */
export async function loadTasks(): Promise<ResearchTask[]> {
  return Promise.all(taskNames().map(getTask));
}
