import type { ResearchTask } from "./types.js";
import { bostonHousingTask } from "./boston-housing/index.js";
import { fashionMnistTask } from "./fashion-mnist/index.js";
import { spamTask } from "./spam/index.js";
import { titanicTask } from "./titanic/index.js";
import { vectorizationTask } from "./vectorization/index.js";

/** Tasks that run with no download, built on installed datasets. */
export const OFFLINE_TASKS: readonly ResearchTask[] = [vectorizationTask, titanicTask, spamTask, bostonHousingTask, fashionMnistTask];
