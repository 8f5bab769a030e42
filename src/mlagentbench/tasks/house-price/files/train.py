import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split

# Numeric columns with no missing values; many more columns (and their codes) are described in data_description.txt.
FEATURES = [
    "MSSubClass", "LotArea", "OverallQual", "OverallCond", "YearBuilt", "YearRemodAdd", "1stFlrSF", "2ndFlrSF",
    "LowQualFinSF", "GrLivArea", "FullBath", "HalfBath", "BedroomAbvGr", "KitchenAbvGr", "TotRmsAbvGrd",
    "Fireplaces", "WoodDeckSF", "OpenPorchSF", "EnclosedPorch", "3SsnPorch", "ScreenPorch", "PoolArea",
    "MiscVal", "MoSold", "YrSold",
]

train = pd.read_csv("train.csv")
test = pd.read_csv("test.csv")

x = train[FEATURES]
y = train["SalePrice"]
x_fit, x_val, y_fit, y_val = train_test_split(x, y, random_state=1)

model = RandomForestRegressor(n_estimators=100, random_state=1)
model.fit(x_fit, y_fit)
print(f"Train MAE: {mean_absolute_error(y_fit, model.predict(x_fit)):,.0f}")
print(f"Validation MAE: {mean_absolute_error(y_val, model.predict(x_val)):,.0f}")

submission = pd.DataFrame({"Id": test["Id"], "SalePrice": model.predict(test[FEATURES])})
submission.to_csv("submission.csv", index=False)
