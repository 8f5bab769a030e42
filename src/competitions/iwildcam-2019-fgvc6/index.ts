import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("iwildcam-2019-fgvc6", { grader: () => import("./grade.js") });
