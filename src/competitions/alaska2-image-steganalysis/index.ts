import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("alaska2-image-steganalysis", { grader: () => import("./grade.js") });
