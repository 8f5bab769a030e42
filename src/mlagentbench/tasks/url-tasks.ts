import type { ResearchTask } from "./types.js";

/** Research tasks whose data comes from public URLs (downloaded over HTTP and checked against checksums). */
export const URL_TASKS: readonly ResearchTask[] = [];
