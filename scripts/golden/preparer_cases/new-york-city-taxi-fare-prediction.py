"""new-york-city-taxi-fare-prediction: synthetic raw files and upstream's preparation steps.

Kaggle's train.csv is 55M rides; this one has 10,200, just above the 9,914 rows held out, so
the train side keeps a few hundred. Cells are written as text on purpose, in the spellings the
real file mixes: keys with fractions of varying length, coordinates with 4 to 6 decimals and a
few with 16 or 17 significant digits, zero coordinates as "0" or "0.0", whole fares as "5" or
"5.0", and empty dropoff coordinates (NaN) in some rides.
"""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

ROWS = 10200
HEADER = "key,fare_amount,pickup_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,dropoff_latitude,passenger_count"
NOTES = "GCP-Coupons-Instructions.rtf"


def coordinate(rs, centre, spread):
    """A coordinate as the raw file spells it: mostly a few decimals, sometimes long or zero."""
    u = rs.random_sample()
    if u < 0.02:
        return "0" if rs.random_sample() < 0.5 else "0.0"
    value = centre + rs.normal(0, spread)
    if u < 0.06:
        # Long decimals, as left by an earlier float32 round trip.
        return repr(float(np.float32(value)))
    return repr(round(value, int(rs.randint(4, 7))))


def fare(rs):
    u = rs.random_sample()
    cents = int(rs.randint(250, 6000) // 10 * 10)
    if u < 0.05:
        return str(cents // 100)  # a whole fare written as an integer
    if u < 0.08:
        return "%d.0" % (cents // 100)
    if u < 0.09:
        return "-%s" % repr(cents / 100)  # refunds are negative
    return repr(cents / 100)


def rides(seed=2018):
    rs = np.random.RandomState(seed)
    start = np.datetime64("2009-01-01T00:00:00")
    lines = [HEADER]
    for _ in range(ROWS):
        when = str(start + np.timedelta64(int(rs.randint(0, 6 * 365 * 86400)), "s")).replace("T", " ")
        # Kaggle's keys append a counter of rides at the same second, with 7 to 9 digits.
        key = "%s.%s" % (when, str(int(rs.randint(1, 200))).rjust(int(rs.randint(7, 10)), "0"))
        pickup = [coordinate(rs, -73.97, 0.04), coordinate(rs, 40.75, 0.03)]
        if rs.random_sample() < 0.01:
            dropoff = ["", ""]
        else:
            dropoff = [coordinate(rs, -73.97, 0.05), coordinate(rs, 40.75, 0.04)]
        passengers = int(rs.choice([0, 1, 1, 1, 1, 2, 2, 3, 5, 6]))
        if rs.random_sample() < 0.0005:
            passengers = 208
        lines.append(",".join([key, fare(rs), when + " UTC", *pickup, *dropoff, str(passengers)]))
    return "\n".join(lines) + "\n"


def make_raw(raw):
    with open(os.path.join(raw, "train.csv"), "w", newline="") as f:
        f.write(rides())
    with open(os.path.join(raw, NOTES), "wb") as f:
        f.write(b"{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Helvetica;}}\r\n\\f0 Redeem the coupon code at console.cloud.google.com.\\par\r\n}\r\n")


def prepare(raw, public, private):
    trips = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, test = train_test_split(trips, test_size=9914, random_state=0)
    train.to_csv(os.path.join(public, "labels.csv"), index=False)
    test.drop(columns=["fare_amount"]).to_csv(os.path.join(public, "test.csv"), index=False)
    sample = test[["key"]].copy()
    sample["fare_amount"] = 11.35
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    test.to_csv(os.path.join(private, "test.csv"), index=False)
    shutil.copy(os.path.join(raw, NOTES), os.path.join(public, NOTES))
