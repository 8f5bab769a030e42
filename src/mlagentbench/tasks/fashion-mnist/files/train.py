import numpy as np
import pandas as pd
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline

# Kept small so a run takes seconds: only this many training images are used to fit the model.
FIT_IMAGES = 20_000

train = pd.read_csv("train.csv", dtype=np.int32)
test = pd.read_csv("test.csv", dtype=np.int32)
pixels = [c for c in train.columns if c.startswith("pixel")]

x = train[pixels].to_numpy(np.float32) / 255.0
y = train["label"].to_numpy()
x_fit, x_val, y_fit, y_val = train_test_split(x, y, test_size=0.2, random_state=0, stratify=y)

# 50 principal components of the 784 pixels, then a linear classifier over the ten classes.
model = make_pipeline(PCA(n_components=50, random_state=0), LogisticRegression(max_iter=2000))
model.fit(x_fit[:FIT_IMAGES], y_fit[:FIT_IMAGES])
print(f"Validation accuracy: {model.score(x_val, y_val):.4f}")

predictions = model.predict(test[pixels].to_numpy(np.float32) / 255.0)
pd.DataFrame({"id": test["id"], "label": predictions}).to_csv("submission.csv", index=False)
