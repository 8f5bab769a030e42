import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("denoising-dirty-documents", { grader: () => import("./grade.js") });
