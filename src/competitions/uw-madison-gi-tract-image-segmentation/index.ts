import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("uw-madison-gi-tract-image-segmentation", { grade });
