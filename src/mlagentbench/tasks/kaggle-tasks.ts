import type { ResearchTask } from "./types.js";
import { fathomnetTask } from "./fathomnet/index.js";
import { feedbackTask } from "./feedback/index.js";
import { housePriceTask } from "./house-price/index.js";
import { identifyContrailsTask } from "./identify-contrails/index.js";
import { parkinsonsTask } from "./parkinsons/index.js";
import { spaceshipTitanicTask } from "./spaceship-titanic/index.js";

/** Research tasks whose data comes from Kaggle competitions (downloaded with the Kaggle client). */
export const KAGGLE_TASKS: readonly ResearchTask[] = [
  housePriceTask,
  spaceshipTitanicTask,
  parkinsonsTask,
  feedbackTask,
  identifyContrailsTask,
  fathomnetTask,
];
