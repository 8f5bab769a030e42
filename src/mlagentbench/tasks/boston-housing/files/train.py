import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split

FEATURES = ["RM", "LSTAT", "PTRATIO", "CRIM"]

train = pd.read_csv("train.csv")
test = pd.read_csv("test.csv")

x = train[FEATURES]
y = train["MEDV"]
x_fit, x_val, y_fit, y_val = train_test_split(x, y, test_size=0.2, random_state=0)

model = LinearRegression()
model.fit(x_fit, y_fit)
print(f"Validation MAE: {mean_absolute_error(y_val, model.predict(x_val)):.4f}")

submission = pd.DataFrame({"Id": test["Id"], "MEDV": model.predict(test[FEATURES])})
submission.to_csv("submission.csv", index=False)
