import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

train = pd.read_csv("train.csv")
test = pd.read_csv("test.csv")

text_fit, text_val, y_fit, y_val = train_test_split(
    train["text"], train["label"], test_size=0.2, random_state=0, stratify=train["label"]
)

vectorizer = TfidfVectorizer(max_features=5000)
model = LogisticRegression(max_iter=1000)
model.fit(vectorizer.fit_transform(text_fit), y_fit)
val_scores = model.predict_proba(vectorizer.transform(text_val))[:, 1]
print(f"Validation ROC AUC: {roc_auc_score(y_val, val_scores):.4f}")

test_scores = model.predict_proba(vectorizer.transform(test["text"]))[:, 1]
pd.DataFrame({"id": test["id"], "label": test_scores}).to_csv("submission.csv", index=False)
