import { fileURLToPath } from "node:url";
import { competition } from "../../../competitions/fashion-mnist/index.js";
import { offlineResearchTask } from "../starter.js";

/** Timeout of one scoring run of train.py; the starter needs well under a minute on two cores. */
const TIMEOUT_MS = 900_000;

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds Fashion-MNIST: small greyscale photographs of clothing, shoes and bags, each 28 by 28 pixels, in ten classes. Every image is one CSV row. train.csv has the columns id, label (the class, 0 to 9) and pixel0 to pixel783, the brightness of each pixel from 0 (background) to 255, row by row (pixel j lies in row j // 28 and column j % 28 of the image); it holds 60,000 images. test.csv has id and the pixel columns for 10,000 other images, without label. classes.csv names the classes (0 T-shirt/top, 1 Trouser, 2 Pullover, 3 Dress, 4 Coat, 5 Sandal, 6 Shirt, 7 Sneaker, 8 Bag, 9 Ankle boot). train.py is a first attempt: it reduces the pixels to 50 principal components, fits a logistic regression on part of train.csv, prints its accuracy on held-out training images and writes its predictions for test.csv to submission.csv. Improve on it: use more of the data, models that make use of the images' two-dimensional shape, augmentation or ensembles, and check each idea on held-out data before trusting it. train.py must finish within ${TIMEOUT_MS / 60_000} minutes when it is run for scoring.

How your work is scored: the evaluator runs train.py from the workspace and reads the submission.csv it writes. That file needs a header row and one row per image of test.csv, with the columns id and label (a whole number from 0 to 9). The score is the share of test images whose class is predicted correctly (accuracy, from 0 to 1); higher is better. The true classes for test.csv are not in the workspace. train.csv, test.csv, sample_submission.csv and classes.csv may not be changed.`;

/** Classify Fashion-MNIST garments from the offline fashion-mnist competition's split. */
export const fashionMnistTask = offlineResearchTask({
  name: "fashion-mnist",
  statement: STATEMENT,
  metric: "accuracy of the predicted class on the hidden test images (0 to 1)",
  competition,
  filesDir: fileURLToPath(new URL("./files/", import.meta.url)),
  taskDir: fileURLToPath(new URL(".", import.meta.url)),
  timeoutMs: TIMEOUT_MS,
  readOnly: ["train.csv", "test.csv", "sample_submission.csv", "classes.csv"],
});
