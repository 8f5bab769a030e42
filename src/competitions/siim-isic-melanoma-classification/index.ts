import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("siim-isic-melanoma-classification", { grader: () => import("./grade.js") });
