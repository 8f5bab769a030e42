import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("hubmap-kidney-segmentation", { grader: () => import("./grade.js") });
