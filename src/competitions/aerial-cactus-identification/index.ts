import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("aerial-cactus-identification", { grader: () => import("./grade.js") });
