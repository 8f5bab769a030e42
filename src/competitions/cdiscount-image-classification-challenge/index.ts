import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("cdiscount-image-classification-challenge", { grade });
