import json
from collections import Counter

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

TOP = 20


def categories_of(cell):
    """The category ids of a train.csv cell such as "[1.0, 9.0, 11.0]"."""
    return [int(float(v)) for v in cell.strip("[]").split(",") if v.strip()]


def average_precision(actual, predicted, k=TOP):
    hits, score = 0, 0.0
    for i, p in enumerate(predicted[:k]):
        if p in actual and p not in predicted[:i]:
            hits += 1
            score += hits / (i + 1)
    return score / min(len(actual), k) if actual else 0.0


train = pd.read_csv("multilabel_classification/train.csv")
labels = train["categories"].map(categories_of)
fit, valid = train_test_split(labels, test_size=0.1, random_state=0)

# The most frequent categories of the training part, predicted for every image.
counts = Counter(c for cats in fit for c in cats)
ranking = [c for c, _ in counts.most_common(TOP)]
print(f"Validation MAP@{TOP}: {np.mean([average_precision(a, ranking) for a in valid]):.4f}")

ranking = [c for c, _ in Counter(c for cats in labels for c in cats).most_common(TOP)]
test_images = json.load(open("object_detection/eval.json"))["images"]
ids = [image["file_name"][:-4] for image in test_images]
submission = pd.DataFrame({
    "id": ids,
    "categories": " ".join(str(c) for c in ranking),
    # Without an image model every test image is equally likely to be out-of-sample.
    "osd": 0.5,
})
submission.to_csv("submission.csv", index=False)
