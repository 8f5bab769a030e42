import pandas as pd
from sklearn.linear_model import LogisticRegression

CATEGORICAL = ["HomePlanet", "CryoSleep", "Destination", "VIP", "Deck", "Side"]


def features(frame):
    x = frame.copy()
    x[["Deck", "CabinNum", "Side"]] = x["Cabin"].str.split("/", expand=True)
    return pd.get_dummies(x[CATEGORICAL].astype(str))


train = pd.read_csv("train.csv")
test = pd.read_csv("test.csv")

shuffled = train.sample(frac=1, random_state=1)
cut = int(0.8 * len(shuffled))
fit, val = shuffled.iloc[:cut], shuffled.iloc[cut:]

# One-hot columns of the training part; other frames are aligned to them (unseen categories become all-zero).
x_fit = features(fit)
x_val = features(val).reindex(columns=x_fit.columns, fill_value=0)
x_test = features(test).reindex(columns=x_fit.columns, fill_value=0)

model = LogisticRegression(max_iter=1000)
model.fit(x_fit, fit["Transported"])
print(f"Train accuracy: {model.score(x_fit, fit['Transported']):.4f}")
print(f"Validation accuracy: {model.score(x_val, val['Transported']):.4f}")

submission = pd.DataFrame({"PassengerId": test["PassengerId"], "Transported": model.predict(x_test)})
submission.to_csv("submission.csv", index=False)
