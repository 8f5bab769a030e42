import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split

DIMENSIONS = ["cohesion", "syntax", "vocabulary", "phraseology", "grammar", "conventions"]


def mcrmse(truth, predicted):
    """Root mean squared error of each measure, averaged over the measures."""
    per_measure = np.sqrt(np.mean((np.asarray(truth) - np.asarray(predicted)) ** 2, axis=0))
    return dict(zip(DIMENSIONS, per_measure)), float(np.mean(per_measure))


train = pd.read_csv("train.csv").dropna()
test = pd.read_csv("test.csv")

text_fit, text_val, y_fit, y_val = train_test_split(train["full_text"], train[DIMENSIONS].to_numpy(), test_size=0.1, random_state=42)

vectorizer = TfidfVectorizer(min_df=2, max_features=20000, ngram_range=(1, 2), sublinear_tf=True)
x_fit = vectorizer.fit_transform(text_fit)
model = Ridge(alpha=3.0)
model.fit(x_fit, y_fit)

per_measure, score = mcrmse(y_val, model.predict(vectorizer.transform(text_val)))
print({k: round(v, 4) for k, v in per_measure.items()})
print(f"Validation MCRMSE: {score:.4f}")

predictions = np.clip(model.predict(vectorizer.transform(test["full_text"])), 1.0, 5.0)
submission = pd.DataFrame(predictions, columns=DIMENSIONS)
submission.insert(0, "text_id", test["text_id"])
submission.to_csv("submission.csv", index=False)
