import type { ResearchTask } from "./types.js";
import { babylmTask } from "./babylm/index.js";
import { cifar10Task } from "./cifar10/index.js";
import { clrsTask } from "./clrs/index.js";
import { imdbTask } from "./imdb/index.js";
import { llamaInferenceTask } from "./llama-inference/index.js";
import { ogbnArxivTask } from "./ogbn-arxiv/index.js";

/** Research tasks whose data comes from public URLs (downloaded over HTTP and checked against checksums). */
export const URL_TASKS: readonly ResearchTask[] = [cifar10Task, imdbTask, ogbnArxivTask, clrsTask, babylmTask, llamaInferenceTask];
