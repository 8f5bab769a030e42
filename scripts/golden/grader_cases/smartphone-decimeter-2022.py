"""smartphone-decimeter-2022: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

COLUMNS = ["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]


def score(g, name):
    """Upstream's steps: the four columns, equal row counts, then per trip (answers' order of first
    appearance) equal row counts and the k-th submitted row of the trip against the k-th true one
    (timestamps never compared): mean of the 50th and 95th percentile haversine distance
    (R = 6,371,000 m); the trips' scores are averaged. np.deg2rad on text raises, so None."""
    s = g.read(name + ".csv")
    a = g.read("answers.csv")
    if not set(COLUMNS) <= set(s.columns) or len(s) != len(a):
        return None
    per_trip = []
    for trip in pd.unique(a["tripId"]):
        t = a[a["tripId"] == trip]
        p = s[s["tripId"] == trip]
        if len(p) != len(t):
            return None
        try:
            lat1 = np.deg2rad(p["LatitudeDegrees"].to_numpy())
            lng1 = np.deg2rad(p["LongitudeDegrees"].to_numpy())
        except TypeError:
            return None
        lat2 = np.deg2rad(t["LatitudeDegrees"].to_numpy())
        lng2 = np.deg2rad(t["LongitudeDegrees"].to_numpy())
        h = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lng2 - lng1) / 2) ** 2
        d = 2 * 6_371_000 * np.arcsin(np.sqrt(h))
        p50, p95 = np.percentile(d, [50, 95])
        per_trip.append((p50 + p95) / 2)
    return np.mean(per_trip)


# smartphone-decimeter-2022: per trip, the mean of the p50 and p95 horizontal errors in metres; averaged over trips.
def generate(g):
    drives = ["2021-08-24-US-SVL-1", "2022-01-11-US-MTV-1", "2022-04-25-US-OAK-2"]
    trips = [(drives[0], "GooglePixel5"), (drives[0], "SamsungGalaxyS20Ultra"), (drives[1], "XiaomiMi8"), (drives[2], "GooglePixel6Pro")]
    rows = []
    for drive, phone in trips:
        m = g.rng.randint(12, 25)
        t0 = int(g.rng.randint(1_629_000_000, 1_651_000_000)) * 1000
        lat0, lng0 = 37.3 + g.rng.uniform(0, 0.5), -122.4 + g.rng.uniform(0, 0.4)
        heading = g.rng.uniform(0, 2 * np.pi)
        for k in range(m):
            rows.append({"tripId": f"{drive}-{phone}", "UnixTimeMillis": t0 + 1000 * k,
                         "LatitudeDegrees": lat0 + 1e-4 * k * np.sin(heading) + g.rng.normal(0, 2e-6),
                         "LongitudeDegrees": lng0 + 1e-4 * k * np.cos(heading) + g.rng.normal(0, 2e-6)})
    pd.DataFrame(rows).to_csv(g.path("answers.csv"), index=False, float_format="%.9f")
    ans = g.read("answers.csv")
    n = len(ans)
    g.leaderboard(sorted(np.round(g.rng.uniform(1.3, 9.0, 770), 5)))

    lat = ans["LatitudeDegrees"].to_numpy()
    lng = ans["LongitudeDegrees"].to_numpy()
    noisy_lat = np.round(lat + g.rng.normal(0, 2.5e-5, n), 9)
    noisy_lng = np.round(lng + g.rng.normal(0, 3e-5, n), 9)

    def sub(la=noisy_lat, ln=noisy_lng, frame=ans):
        return frame.assign(LatitudeDegrees=la, LongitudeDegrees=ln)[COLUMNS]

    trip_of = ans["tripId"].to_numpy()
    first_trip = trip_of == trip_of[0]
    # Rows of different trips interleaved, each trip's own rows still in time order.
    key = g.rng.rand(n)
    for trip in np.unique(trip_of):
        key[trip_of == trip] = np.sort(key[trip_of == trip])
    interleaved = sub().iloc[np.argsort(key)]
    reversed_trip = sub()
    reversed_trip.loc[first_trip, ["LatitudeDegrees", "LongitudeDegrees"]] = reversed_trip.loc[first_trip, ["LatitudeDegrees", "LongitudeDegrees"]].to_numpy()[::-1]
    subs = {
        "perfect": sub(lat, lng),
        "sample_constant": sub(np.full(n, 37.904611315634504), np.full(n, -86.48107806249548)),
        "noisy": sub(),
        "noisy_trips_interleaved": interleaved,
        # Timestamps are never compared with the answers'.
        "noisy_wrong_timestamps": sub().assign(UnixTimeMillis=lambda d: d["UnixTimeMillis"] + 12345),
        "noisy_sorted_by_time_desc": sub().sort_values(["tripId", "UnixTimeMillis"], ascending=[True, False]),
        "one_trip_reversed": reversed_trip,
        "extra_columns": sub().assign(AltitudeMeters=12.5, phone="x"),
        "integer_degrees": sub(np.round(lat).astype(int), np.round(lng).astype(int)),
        # np.deg2rad computes booleans in float16.
        "bool_latitude": sub(lat > lat.mean(), noisy_lng),
        "swapped_lat_lng": sub(noisy_lng, noisy_lat),
        "text_latitude": sub().astype({"LatitudeDegrees": object}),
        "missing_timestamp_column": sub().drop(columns=["UnixTimeMillis"]),
        "renamed_column": sub().rename(columns={"LongitudeDegrees": "LngDegrees"}),
        "missing_row": sub().iloc[1:],
        "extra_row": pd.concat([sub(), sub().iloc[:1]]),
        "row_in_wrong_trip": sub().assign(tripId=np.concatenate([trip_of[-1:], trip_of[1:]])),
        "unknown_trip": sub().assign(tripId=np.where(trip_of == trip_of[-1], "2022-04-25-US-OAK-2-Pixel4", trip_of)),
    }
    subs["text_latitude"].iloc[9, 2] = "37.4N"
    for name, df in subs.items():
        g.write(df, name + ".csv")
        g.record(name, score(g, name))
    e = g.expected
    assert e["perfect"] == 0
    assert e["sample_constant"] > 2e6
    assert 1 < e["noisy"] < 10
    assert e["noisy"] == e["noisy_trips_interleaved"] == e["noisy_wrong_timestamps"] == e["extra_columns"]
    assert e["one_trip_reversed"] > e["noisy"] * 5 and e["noisy_sorted_by_time_desc"] > e["noisy"] * 5
    for name in ["text_latitude", "missing_timestamp_column", "renamed_column", "missing_row", "extra_row",
                 "row_in_wrong_trip", "unknown_trip"]:
        assert e[name] is None, name
