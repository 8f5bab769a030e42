"""smartphone-decimeter-2022: synthetic raw drive folders and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

PHONES = ["GooglePixel4", "GooglePixel4XL", "GooglePixel5", "SamsungGalaxyS20Ultra", "XiaomiMi8"]
# Several drives per day, unpadded months/days, and names that extend others ("-1" / "-1-2").
DRIVES = [
    "2020-05-15-US-MTV-1", "2020-05-15-US-MTV-1-2", "2020-05-21-US-MTV-1", "2020-05-21-US-MTV-1-2", "2020-5-29-US-MTV-2",
    "2020-06-04-US-MTV-1", "2020-07-08-US-MTV-1", "2020-07-08-US-MTV-1-2", "2020-08-03-US-MTV-2",
    "2020-8-13-US-MTV-1", "2020-12-10-US-SJC-1", "2020-12-10-US-SJC-2", "2021-01-04-US-RWC-1",
    "2021-1-5-US-SJC-1", "2021-01-05-US-SJC-1", "2021-03-16-US-MTV-1", "2021-04-28-US-MTV-2",
    "2021-04-28-US-SJC-1", "2021-07-19-US-MTV-1", "2021-08-24-US-SVL-1", "2021-12-07-US-LAX-1",
    "2021-12-07-US-LAX-1-2", "2022-01-11-US-MTV-1", "2022-02-08-US-SJC-1", "2022-04-25-US-OAK-1",
]


def _write_phone(rs, folder, start):
    os.makedirs(os.path.join(folder, "supplemental"))
    n = rs.randint(3, 7)
    gt = pd.DataFrame({
        "MessageType": ["Fix"] * n,
        "Provider": ["GT"] * n,
        "LatitudeDegrees": np.round(37.4 + rs.normal(0, 0.05, n), rs.randint(6, 10)),
        "LongitudeDegrees": np.round(-122.08 + rs.normal(0, 0.05, n), rs.randint(6, 10)),
        "AltitudeMeters": np.where(rs.random_sample(n) < 0.2, np.nan, np.round(rs.normal(-20, 10, n), 3)),
        "SpeedMps": np.round(np.abs(rs.normal(10, 5, n)), 6),
        "AccuracyMeters": [0.1] * n,
        "BearingDegrees": np.round(rs.uniform(0, 360, n), 6),
        "UnixTimeMillis": start + 1000 * np.arange(n),
    })
    gt.to_csv(os.path.join(folder, "ground_truth.csv"), index=False)
    with open(os.path.join(folder, "device_gnss.csv"), "w") as f:
        f.write("MessageType,utcTimeMillis,Svid,Cn0DbHz\n")
        for i in range(n):
            f.write("Raw,%d,%d,%.2f\n" % (start + 1000 * i, rs.randint(1, 33), rs.uniform(15, 45)))
    with open(os.path.join(folder, "device_imu.csv"), "w") as f:
        f.write("MessageType,utcTimeMillis,MeasurementX\nUncalAccel,%d,%.6f\n" % (start, rs.normal()))
    with open(os.path.join(folder, "supplemental", "gnss_log.txt"), "wb") as f:
        f.write(b"# Version: v3.0.0.1\r\nFix,GPS,37.0,-122.0\r\n")


def make_raw(raw_dir):
    rs = np.random.RandomState(2022)
    for k, drive in enumerate(DRIVES):
        for phone in sorted(rs.choice(PHONES, size=rs.randint(1, 4), replace=False)):
            _write_phone(rs, os.path.join(raw_dir, "train", drive, phone), 1589570000000 + k * 86400000)
    os.makedirs(os.path.join(raw_dir, "test", "2022-10-06-US-MTV-1", "GooglePixel7"))
    with open(os.path.join(raw_dir, "test", "2022-10-06-US-MTV-1", "GooglePixel7", "device_gnss.csv"), "w") as f:
        f.write("MessageType,utcTimeMillis\nRaw,1665000000000\n")
    os.makedirs(os.path.join(raw_dir, "metadata"))
    with open(os.path.join(raw_dir, "metadata", "raw_state_bit_map.json"), "w") as f:
        f.write('{"0": "STATE_UNKNOWN", "1": "STATE_CODE_LOCK"}\n')
    with open(os.path.join(raw_dir, "metadata", "accumulated_delta_range_state_bit_map.json"), "w") as f:
        f.write('{"0": "ADR_STATE_UNKNOWN"}\n')
    with open(os.path.join(raw_dir, "sample_submission.csv"), "w") as f:
        f.write("tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n2022-10-06-US-MTV-1-GooglePixel7,1665000000000,37.9,-86.4\n")


def _day(drive):
    y, m, d = drive.split("-")[:3]
    return "%s-%s-%s" % (y, m.zfill(2), d.zfill(2))


def prepare(raw, public, private):
    drives = sorted(d for d in os.listdir(os.path.join(raw, "train")) if os.path.isdir(os.path.join(raw, "train", d)))
    days = sorted(set(_day(d) for d in drives))
    _train_days, test_days = train_test_split(days, test_size=0.1, random_state=0)
    test_drives = [d for d in drives if _day(d) in test_days]
    for d in drives:
        shutil.copytree(os.path.join(raw, "train", d), os.path.join(public, "test" if d in test_drives else "train", d))
    parts = []
    found = []
    for drive in sorted(test_drives):
        for phone in sorted(os.listdir(os.path.join(public, "test", drive))):
            path = os.path.join(public, "test", drive, phone, "ground_truth.csv")
            if os.path.exists(path):
                found.append(path)
                df = pd.read_csv(path)
                df["tripId"] = "%s-%s" % (drive, phone)
                parts.append(df[["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]])
    answers = pd.concat(parts, ignore_index=True)
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    for path in found:
        os.remove(path)
    shutil.copytree(os.path.join(raw, "metadata"), os.path.join(public, "metadata"))
    sample = answers.copy()
    sample["LatitudeDegrees"] = 37.904611315634504
    sample["LongitudeDegrees"] = -86.48107806249548
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
