"""new-york-city-taxi-fare-prediction: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import math

import numpy as np
import pandas as pd
from sklearn.metrics import mean_squared_error


# new-york-city-taxi-fare-prediction: RMSE after sorting both sides by key (keys not compared).
def generate(g):
    n = 400
    base = pd.Timestamp("2013-01-01")
    keys = [str(base + pd.Timedelta(seconds=int(s))) + f".{k:07d}" for s, k in zip(g.rng.randint(0, 10**8, n), g.rng.randint(0, 10**6, n))]
    fares = np.round(g.rng.gamma(2.0, 6.0, n) + 2.5, 2)
    g.write(pd.DataFrame({"key": keys, "fare_amount": fares}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(2.8, 9.5, 1480), 5)))
    cases = {
        "perfect": fares.copy(),
        "mean": np.full(n, 11.35),
        "noisy": fares + g.rng.normal(0, 3, n),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"key": keys, "fare_amount": pred}).sample(frac=1, random_state=5), f"{name}.csv")
        a = g.read("answers.csv").sort_values("key")
        s = g.read(f"{name}.csv").sort_values("key")
        g.record(name, math.sqrt(mean_squared_error(a.fare_amount, s.fare_amount)))
    # Keys are not checked: other keys in the same count still score, row by row after sorting.
    other = [k[:-1] + "x" for k in keys]
    pred = cases["noisy"]
    g.write(pd.DataFrame({"key": other, "fare_amount": pred}), "wrong_keys.csv")
    a = g.read("answers.csv").sort_values("key")
    s = g.read("wrong_keys.csv").sort_values("key")
    g.record("wrong_keys", math.sqrt(mean_squared_error(a.fare_amount, s.fare_amount)))
