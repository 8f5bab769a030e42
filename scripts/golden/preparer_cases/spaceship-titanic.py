"""spaceship-titanic: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split


def spaceship_raw(n=700, seed=7):
    rs = np.random.RandomState(seed)
    def maybe(values, p_missing=0.03):
        return [None if rs.random_sample() < p_missing else v for v in values]
    groups = np.cumsum(rs.randint(1, 3, size=n))
    ids = []
    last, k = None, 0
    for g in groups:
        k = k + 1 if g == last else 1
        last = g
        ids.append("%04d_%02d" % (g, k))
    planets = rs.choice(["Earth", "Europa", "Mars"], size=n)
    cryo = rs.random_sample(n) < 0.35
    cabins = ["%s/%d/%s" % (rs.choice(list("ABCDEFGT")), rs.randint(0, 1900), rs.choice(["P", "S"])) for _ in range(n)]
    dest = rs.choice(["TRAPPIST-1e", "55 Cancri e", "PSO J318.5-22"], size=n)
    age = rs.randint(0, 80, size=n).astype(float)
    vip = rs.random_sample(n) < 0.03
    spend = {c: np.where(cryo, 0.0, np.round(rs.exponential(300, size=n)) * (rs.random_sample(n) < 0.6)) for c in ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]}
    first = rs.choice(["Juanna", "Altark", "Solam", "Willy", "Sandie", "Billex"], size=n)
    lastn = rs.choice(["Vines", "Susent", "Santantines", "Hetforhaney", "Hinetthews"], size=n)
    transported = (cryo | (rs.random_sample(n) < 0.3)) & ~(vip & (rs.random_sample(n) < 0.5))
    df = pd.DataFrame({
        "PassengerId": ids,
        "HomePlanet": maybe(list(planets)),
        "CryoSleep": maybe(list(cryo)),
        "Cabin": maybe(cabins),
        "Destination": maybe(list(dest)),
        "Age": maybe(list(age)),
        "VIP": maybe(list(vip)),
        **{c: maybe(list(v)) for c, v in spend.items()},
        "Name": maybe(["%s %s" % (a, b) for a, b in zip(first, lastn)]),
        "Transported": transported,
    })
    return df


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"))
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    sample = new_test[["PassengerId", "Transported"]].copy()
    sample["Transported"] = False
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.drop("Transported", axis="columns").to_csv(os.path.join(public, "test.csv"), index=False)


def make_raw(raw):
    spaceship_raw().to_csv(os.path.join(raw, "train.csv"), index=False)
