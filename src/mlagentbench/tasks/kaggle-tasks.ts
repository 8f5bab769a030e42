import type { ResearchTask } from "./types.js";

/** Research tasks whose data comes from Kaggle competitions (downloaded with the Kaggle client). */
export const KAGGLE_TASKS: readonly ResearchTask[] = [];
