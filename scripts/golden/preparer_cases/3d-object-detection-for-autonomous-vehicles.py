"""3d-object-detection-for-autonomous-vehicles: synthetic raw files and upstream's preparation steps."""
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

CLASSES = ["car", "pedestrian", "animal", "other_vehicle", "bus", "motorcycle", "truck", "emergency_vehicle", "bicycle"]
SHARED = ["attribute.json", "category.json", "sensor.json", "visibility.json"]


def token(rs):
    return "".join("%016x" % v for v in rs.randint(0, 2**62, size=4, dtype=np.int64))


def vec(rs, n, scale=10.0):
    return [float(x) for x in rs.normal(0, scale, size=n)]


def dump(obj, raw, name):
    with open(os.path.join(raw, "train_data", name), "w") as f:
        json.dump(obj, f)


def make_raw(raw):
    rs = np.random.RandomState(5)
    for folder in ("train_data", "train_images", "train_lidar", "train_maps"):
        os.makedirs(os.path.join(raw, folder))
    sensors = [{"channel": ch, "token": token(rs), "modality": "camera" if "CAM" in ch else "lidar"} for ch in ["CAM_FRONT", "CAM_BACK", "LIDAR_TOP"]]
    categories = [{"description": "", "token": token(rs), "name": c} for c in CLASSES]
    attributes = [{"description": "", "token": token(rs), "name": "object_action_" + a} for a in ["walking", "parked", "moving", "stopped"]]
    visibility = [{"level": lv, "description": d, "token": str(i + 1)} for i, (lv, d) in enumerate([("v0-40", "visibility of whole object is between 0 and 40%"), ("v40-60", "between 40 and 60%"), ("v60-80", "between 60 and 80%"), ("v80-100", "between 80 and 100%")])]
    n_logs = 11
    logs = [{"date_captured": "2019-05-%02d" % rs.randint(1, 29), "location": rs.choice(["Palo Alto", "Palo Alto \u2013 Stanford"]), "vehicle": "a%03d" % rs.randint(100, 120), "logfile": "", "token": token(rs)} for _ in range(n_logs)]
    calibrations = [{"sensor_token": s["token"], "rotation": vec(rs, 4, 1.0), "camera_intrinsic": [vec(rs, 3, 900.0), vec(rs, 3, 900.0), [0.0, 0.0, 1.0]] if s["modality"] == "camera" else [], "translation": vec(rs, 3, 1.0), "token": token(rs)} for s in sensors for _ in range(4)]
    scenes, samples, sample_data, ego_poses, annotations, instances, rows = [], [], [], [], [], [], []
    for log in logs:
        n_samples = rs.randint(2, 5)
        # Kaggle's samples name their log's token as scene_token; upstream's split relies on it.
        scene_samples = [{"next": "", "prev": "", "token": token(rs), "timestamp": 1557858039302414.8 + rs.randint(0, 10**9), "scene_token": log["token"]} for _ in range(n_samples)]
        for a, b in zip(scene_samples, scene_samples[1:]):
            a["next"], b["prev"] = b["token"], a["token"]
        scenes.append({"log_token": log["token"], "first_sample_token": scene_samples[0]["token"], "name": "host-%s-lidar0-%d" % (log["vehicle"], rs.randint(10**9)), "description": "", "last_sample_token": scene_samples[-1]["token"], "nbr_samples": n_samples, "token": log["token"]})
        samples.extend(scene_samples)
        scene_instances = [{"category_token": categories[rs.randint(len(categories))]["token"], "token": token(rs), "first_annotation_token": "", "last_annotation_token": "", "nbr_annotations": 0} for _ in range(rs.randint(1, 4))]
        instances.extend(scene_instances)
        for n_s, s in enumerate(scene_samples):
            for k, sensor in enumerate(sensors):
                pose = {"rotation": vec(rs, 4, 1.0), "translation": vec(rs, 3, 1000.0), "token": token(rs), "timestamp": s["timestamp"] + k}
                ego_poses.append(pose)
                cal = calibrations[4 * k + rs.randint(4)]
                camera = sensor["modality"] == "camera"
                stamp = rs.randint(10**18, 2 * 10**18, dtype=np.int64)
                fname = ("images/host-%s_cam%d_%d.jpeg" % (log["vehicle"], k, stamp)) if camera else ("lidar/host-%s_lidar1_%d.bin" % (log["vehicle"], stamp))
                sample_data.append({"width": 1224 if camera else None, "height": 1024 if camera else None, "calibrated_sensor_token": cal["token"], "token": token(rs), "sample_token": s["token"], "is_key_frame": True, "prev": "", "fileformat": "jpeg" if camera else "bin", "ego_pose_token": pose["token"], "timestamp": pose["timestamp"], "next": "", "filename": fname})
                folder = "train_images" if camera else "train_lidar"
                with open(os.path.join(raw, folder, os.path.basename(fname)), "wb") as f:
                    f.write(b"fake %s %s" % (fname.encode(), s["token"].encode()))
            objects = []
            for inst in scene_instances:
                # Every instance shows up in its scene's first sample, as Kaggle's instances all have annotations.
                if rs.random_sample() < 0.8 or n_s == 0 or (not objects and inst is scene_instances[-1]):
                    size = [float(x) for x in np.round(rs.uniform(0.5, 6, size=3), 3)]
                    translation = [float(x) for x in np.round(rs.normal(1000, 300, size=3), 2)]
                    yaw = float(np.round(rs.uniform(-3.14, 3.14), 6))
                    annotations.append({"token": token(rs), "num_lidar_pts": int(rs.randint(0, 500)), "size": size, "sample_token": s["token"], "rotation": vec(rs, 4, 1.0), "prev": "", "translation": translation, "num_radar_pts": 0, "attribute_tokens": [attributes[rs.randint(4)]["token"]], "next": "", "instance_token": inst["token"], "visibility_token": str(rs.randint(1, 5)), "category_token": inst["category_token"]})
                    name = next(c["name"] for c in categories if c["token"] == inst["category_token"])
                    objects.append(" ".join([repr(t) for t in translation] + [repr(x) for x in size] + [repr(yaw), name]))
            rows.append({"Id": s["token"], "PredictionString": " ".join(objects)})
    # One sample data entry listed twice, as a re-used file would be.
    sample_data.append(dict(sample_data[0], token=token(rs)))
    order = lambda xs: [xs[i] for i in rs.permutation(len(xs))]
    dump(logs, raw, "log.json")
    dump(order(scenes), raw, "scene.json")
    dump(order(samples), raw, "sample.json")
    dump(order(sample_data), raw, "sample_data.json")
    dump(order(ego_poses), raw, "ego_pose.json")
    dump(calibrations, raw, "calibrated_sensor.json")
    dump(order(annotations), raw, "sample_annotation.json")
    dump(order(instances), raw, "instance.json")
    dump([{"log_tokens": [l["token"] for l in logs], "category": "semantic_prior", "filename": "maps/map_raster_palo_alto.png", "token": token(rs)}], raw, "map.json")
    dump(attributes, raw, "attribute.json")
    dump(categories, raw, "category.json")
    dump(sensors, raw, "sensor.json")
    dump(visibility, raw, "visibility.json")
    with open(os.path.join(raw, "train_maps", "map_raster_palo_alto.png"), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n fake semantic map")
    pd.DataFrame(order(rows)).to_csv(os.path.join(raw, "train.csv"), index=False)
    pd.DataFrame({"Id": [token(rs)], "PredictionString": [""]}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def load(raw, name):
    with open(os.path.join(raw, "train_data", name)) as f:
        return json.load(f)


def save(public, side, name, obj):
    with open(os.path.join(public, side + "_data", name), "w") as f:
        json.dump(obj, f)


def with_confidence(text):
    tokens = text.split(" ")
    out = []
    for i in range(0, len(tokens), 8):
        out.extend(["1.0"] + tokens[i:i + 8])
    return " ".join(out)


def prepare(raw, public, private):
    for side in ("train", "test"):
        os.makedirs(os.path.join(public, side + "_data"))
    logs = load(raw, "log.json")
    log_ids = [l["token"] for l in logs]
    train_logs, test_logs = train_test_split(log_ids, test_size=0.2, random_state=0)
    save(public, "train", "log.json", [l for l in logs if l["token"] in train_logs])
    save(public, "test", "log.json", [l for l in logs if l["token"] in test_logs])
    samples = load(raw, "sample.json")
    train_samples = [s for s in samples if s["scene_token"] in train_logs]
    test_samples = [s for s in samples if s["scene_token"] in test_logs]
    save(public, "train", "sample.json", train_samples)
    save(public, "test", "sample.json", test_samples)
    table = pd.read_csv(os.path.join(raw, "train.csv"))
    train_df = table[table["Id"].isin([s["token"] for s in train_samples])]
    test_df = table[table["Id"].isin([s["token"] for s in test_samples])].copy()
    train_df.to_csv(os.path.join(public, "train.csv"), index=False)
    test_df["PredictionString"] = test_df["PredictionString"].apply(with_confidence)
    test_df.to_csv(os.path.join(private, "test.csv"), index=False)
    sample = test_df[["Id"]].copy()
    sample["PredictionString"] = ""
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    train_ids, test_ids = set(train_df["Id"]), set(test_df["Id"])

    def by_sample(items):
        tr = [x for x in items if x["sample_token"] in train_ids]
        te = [x for x in items if x["sample_token"] not in train_ids and x["sample_token"] in test_ids]
        return tr, te

    train_data, test_data = by_sample(load(raw, "sample_data.json"))
    save(public, "train", "sample_data.json", train_data)
    save(public, "test", "sample_data.json", test_data)
    for side in ("train", "test"):
        os.makedirs(os.path.join(public, side + "_maps"))
        shutil.copyfile(os.path.join(raw, "train_maps", "map_raster_palo_alto.png"), os.path.join(public, side + "_maps", "map_raster_palo_alto.png"))
        for name in SHARED:
            shutil.copyfile(os.path.join(raw, "train_data", name), os.path.join(public, side + "_data", name))
    calibrations = {c["token"]: c for c in load(raw, "calibrated_sensor.json")}
    poses = {p["token"]: p for p in load(raw, "ego_pose.json")}
    for side, data in (("train", train_data), ("test", test_data)):
        used = []
        for d in data:
            if d["calibrated_sensor_token"] not in [c["token"] for c in used]:
                used.append(calibrations[d["calibrated_sensor_token"]])
        save(public, side, "calibrated_sensor.json", used)
        save(public, side, "ego_pose.json", [poses[d["ego_pose_token"]] for d in data])
    maps = load(raw, "map.json")
    # Upstream's two lists share one dict, so both files end up naming the test logs.
    train_maps, test_maps = maps.copy(), maps.copy()
    train_maps[0]["log_tokens"] = train_logs
    test_maps[0]["log_tokens"] = test_logs
    save(public, "train", "map.json", train_maps)
    save(public, "test", "map.json", test_maps)
    scenes = load(raw, "scene.json")
    save(public, "train", "scene.json", [s for s in scenes if s["log_token"] in train_logs])
    save(public, "test", "scene.json", [s for s in scenes if s["log_token"] not in train_logs and s["log_token"] in test_logs])
    train_ann, test_ann = by_sample(load(raw, "sample_annotation.json"))
    save(public, "train", "sample_annotation.json", train_ann)
    train_inst = {a["instance_token"] for a in train_ann}
    save(public, "train", "instance.json", [i for i in load(raw, "instance.json") if i["token"] in train_inst])
    for folder in ("test_images", "train_images", "test_lidar", "train_lidar"):
        os.makedirs(os.path.join(public, folder))
    for d in train_data + test_data:
        name = Path(d["filename"]).name
        side = "test" if d["sample_token"] in test_ids else "train"
        kind = "images" if d["fileformat"] == "jpeg" else "lidar"
        dst = os.path.join(public, "%s_%s" % (side, kind), name)
        if not os.path.exists(dst):
            shutil.copyfile(os.path.join(raw, "train_" + kind, name), dst)
