import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

FEATURES = ["Pclass", "Sex", "Age", "Fare"]


def features(frame, fill):
    x = frame[FEATURES].copy()
    x["Sex"] = (x["Sex"] == "female").astype(int)
    return x.fillna(fill)


train = pd.read_csv("train.csv")
test = pd.read_csv("test.csv")

fill = train[["Age", "Fare"]].median()
x = features(train, fill)
y = train["Survived"]
x_fit, x_val, y_fit, y_val = train_test_split(x, y, test_size=0.2, random_state=0, stratify=y)

model = LogisticRegression(max_iter=1000)
model.fit(x_fit, y_fit)
print(f"Validation accuracy: {model.score(x_val, y_val):.4f}")

submission = pd.DataFrame({"PassengerId": test["PassengerId"], "Survived": model.predict(features(test, fill))})
submission.to_csv("submission.csv", index=False)
