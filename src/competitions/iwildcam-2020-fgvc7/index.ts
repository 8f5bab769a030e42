import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("iwildcam-2020-fgvc7", { grader: () => import("./grade.js") });
