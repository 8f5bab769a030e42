"""nfl-player-contact-detection: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

VIEWS = ["All29", "Endzone", "Sideline"]


def _time(base_ms, step):
    ms = base_ms + step * 100
    s = ms // 1000
    return "2020-09-%02dT%02d:%02d:%02d.%03dZ" % (11 + s // 86400 % 10, s // 3600 % 24, s // 60 % 60, s % 60, ms % 1000)


def make_raw(raw_dir, n_plays=24):
    rs = np.random.RandomState(3)
    plays = []
    for _ in range(n_plays):
        game_key = rs.randint(57000, 59000)
        plays.append((game_key, rs.randint(100, 4000), "%d_%06d" % (game_key, 0)))
    plays = [(g, p, "%d_%06d" % (g, p)) for g, p, _ in plays]
    players = {gp: list(rs.choice(np.arange(25000, 55000), size=5, replace=False)) for _, _, gp in plays}
    labels, helmets, tracking, meta = [], [], [], []
    for g, p, gp in plays:
        base = rs.randint(0, 10 ** 9)
        ids = players[gp]
        for step in range(rs.randint(2, 4)):
            for a in range(len(ids)):
                for b in ["G"] + [str(x) for x in ids[a + 1:]]:
                    labels.append((gp, step, ids[a], b, int(rs.random_sample() < 0.2), _time(base, step)))
            for pid in ids:
                tracking.append((gp, g, p, pid, step, rs.choice(["home", "away"]), rs.choice(["TE", "WR", "CB", "DE"]), rs.randint(1, 99), _time(base, step),
                                 round(rs.uniform(0, 120), 2), round(rs.uniform(0, 53.3), 2), round(rs.uniform(0, 9), 2), round(rs.uniform(0, 1), 2),
                                 np.nan if rs.random_sample() < 0.05 else round(rs.uniform(0, 360), 2), round(rs.uniform(0, 360), 2), round(rs.uniform(0, 5), 2), round(rs.normal(0, 2), 2)))
        for view in ["Endzone", "Sideline"]:
            for frame in range(2):
                for pid in ids[:3]:
                    helmets.append((gp, g, p, view, "%s_%s.mp4" % (gp, view), frame, pid, "%s%d" % (rs.choice(["H", "V"]), rs.randint(1, 99)),
                                    rs.randint(0, 1280), rs.randint(10, 40), rs.randint(0, 720), rs.randint(10, 40)))
            meta.append((gp, g, p, view, _time(base, -50), _time(base, 80), _time(base, 0)))
    # Interleave the plays' label rows so first appearance differs from sorted order.
    order = rs.permutation(len(labels))
    lab = pd.DataFrame([labels[i] for i in sorted(order[: len(labels) // 3])] + [labels[i] for i in sorted(order[len(labels) // 3:])],
                       columns=["game_play", "step", "nfl_player_id_1", "nfl_player_id_2", "contact", "datetime"])
    lab.insert(0, "contact_id", ["%s_%d_%s_%s" % (r.game_play, r.step, r.nfl_player_id_1, r.nfl_player_id_2) for r in lab.itertuples()])
    lab = lab[["contact_id", "game_play", "datetime", "step", "nfl_player_id_1", "nfl_player_id_2", "contact"]]
    lab.to_csv(os.path.join(raw_dir, "train_labels.csv"), index=False)
    # A play with tracking but no labels belongs to neither side.
    tracking.append(("99999_000001", 99999, 1, 1, 0, "home", "QB", 12, _time(0, 0), 1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    pd.DataFrame(helmets, columns=["game_play", "game_key", "play_id", "view", "video", "frame", "nfl_player_id", "player_label", "left", "width", "top", "height"]).to_csv(
        os.path.join(raw_dir, "train_baseline_helmets.csv"), index=False)
    pd.DataFrame(tracking, columns=["game_play", "game_key", "play_id", "nfl_player_id", "step", "team", "position", "jersey_number", "datetime", "x_position", "y_position",
                                    "speed", "distance", "direction", "orientation", "acceleration", "sa"]).to_csv(os.path.join(raw_dir, "train_player_tracking.csv"), index=False)
    pd.DataFrame(meta, columns=["game_play", "game_key", "play_id", "view", "start_time", "end_time", "snap_time"]).to_csv(
        os.path.join(raw_dir, "train_video_metadata.csv"), index=False)
    os.makedirs(os.path.join(raw_dir, "train"))
    os.makedirs(os.path.join(raw_dir, "test"))
    for _, _, gp in plays:
        for view in VIEWS:
            with open(os.path.join(raw_dir, "train", "%s_%s.mp4" % (gp, view)), "wb") as f:
                f.write(b"\x00\x00\x00\x18ftypmp42" + rs.bytes(24))
    with open(os.path.join(raw_dir, "sample_submission.csv"), "w") as f:
        f.write("contact_id,contact\n58168_003392_0_38590_43854,0\n")


def prepare(raw, public, private):
    os.makedirs(os.path.join(public, "train"), exist_ok=True)
    os.makedirs(os.path.join(public, "test"), exist_ok=True)
    labels = pd.read_csv(os.path.join(raw, "train_labels.csv"))
    train_plays, test_plays = train_test_split(labels["game_play"].unique(), test_size=0.1, random_state=0)
    train = labels[labels["game_play"].isin(train_plays)]
    test = labels[labels["game_play"].isin(test_plays)]
    train.to_csv(os.path.join(public, "train_labels.csv"), index=False)
    test.to_csv(os.path.join(private, "test.csv"), index=False)
    for name in ["baseline_helmets", "player_tracking", "video_metadata"]:
        df = pd.read_csv(os.path.join(raw, "train_%s.csv" % name))
        df[df["game_play"].isin(train_plays)].to_csv(os.path.join(public, "train_%s.csv" % name), index=False)
        df[df["game_play"].isin(test_plays)].to_csv(os.path.join(public, "test_%s.csv" % name), index=False)
    for view in VIEWS:
        for side, part in (("train", train), ("test", test)):
            for gp in part["game_play"].unique():
                shutil.copyfile(os.path.join(raw, "train", "%s_%s.mp4" % (gp, view)), os.path.join(public, side, "%s_%s.mp4" % (gp, view)))
    pd.DataFrame({"contact_id": test["contact_id"], "contact": 0}).to_csv(os.path.join(public, "sample_submission.csv"), index=False)
