import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("uw-madison-gi-tract-image-segmentation", { grader: () => import("./grade.js") });
