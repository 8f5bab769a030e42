import os

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from encode import encode_mask

LABELLED_FRAME = 4  # the fifth of the eight images in each band file is the one the masks describe
PIXELS_PER_SCENE = 500
MAX_SCENES = 2000


def false_colour(folder):
    """Three per-pixel features from bands 11, 14 and 15 of the labelled frame, scaled to about [0, 1]."""
    b11, b14, b15 = (np.load(os.path.join(folder, f"band_{b}.npy"))[..., LABELLED_FRAME] for b in (11, 14, 15))
    r = (b15 - b14 + 4) / 6
    g = (b14 - b11 + 4) / 9
    b = (b14 - 243) / 60
    return np.clip(np.stack([r, g, b], axis=-1), 0, 1)


def mask_of(folder):
    return np.load(os.path.join(folder, "human_pixel_masks.npy"))[..., 0]


def dice(pred, truth):
    return (2 * np.sum(pred * truth) + 1e-6) / (np.sum(pred) + np.sum(truth) + 1e-6)


scenes = sorted(os.listdir("train"))
fit_ids, valid_ids = train_test_split(scenes, test_size=0.1, random_state=42)
rng = np.random.default_rng(0)

x_parts, y_parts = [], []
for scene in fit_ids[:MAX_SCENES]:
    folder = os.path.join("train", scene)
    x = false_colour(folder).reshape(-1, 3)
    y = mask_of(folder).reshape(-1)
    take = rng.choice(len(y), size=min(PIXELS_PER_SCENE, len(y)), replace=False)
    x_parts.append(x[take])
    y_parts.append(y[take])
x_fit, y_fit = np.concatenate(x_parts), np.concatenate(y_parts)

model = LogisticRegression(class_weight="balanced", max_iter=1000)
model.fit(x_fit, y_fit)


def predict(folder):
    x = false_colour(folder)
    return model.predict(x.reshape(-1, 3)).reshape(x.shape[:2]).astype(np.uint8)


scores = [dice(predict(os.path.join("train", s)), mask_of(os.path.join("train", s))) for s in valid_ids]
print(f"Validation Dice (mean over {len(scores)} scenes): {np.mean(scores):.4f}")

rows = [(scene, encode_mask(predict(os.path.join("test", scene)))) for scene in sorted(os.listdir("test"))]
pd.DataFrame(rows, columns=["record_id", "encoded_pixels"]).to_csv("submission.csv", index=False)
