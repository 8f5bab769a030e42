import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("statoil-iceberg-classifier-challenge", { grader: () => import("./grade.js") });
