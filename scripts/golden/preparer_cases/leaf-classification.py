"""leaf-classification: synthetic raw files and upstream's preparation steps."""
import os
import shutil
import zipfile

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_members

# The answer columns, in upstream's order.
SPECIES = """
Acer_Capillipes Acer_Circinatum Acer_Mono Acer_Opalus Acer_Palmatum Acer_Pictum Acer_Platanoids
Acer_Rubrum Acer_Rufinerve Acer_Saccharinum Alnus_Cordata Alnus_Maximowiczii Alnus_Rubra
Alnus_Sieboldiana Alnus_Viridis Arundinaria_Simonii Betula_Austrosinensis Betula_Pendula
Callicarpa_Bodinieri Castanea_Sativa Celtis_Koraiensis Cercis_Siliquastrum Cornus_Chinensis
Cornus_Controversa Cornus_Macrophylla Cotinus_Coggygria Crataegus_Monogyna Cytisus_Battandieri
Eucalyptus_Glaucescens Eucalyptus_Neglecta Eucalyptus_Urnigera Fagus_Sylvatica Ginkgo_Biloba
Ilex_Aquifolium Ilex_Cornuta Liquidambar_Styraciflua Liriodendron_Tulipifera
Lithocarpus_Cleistocarpus Lithocarpus_Edulis Magnolia_Heptapeta Magnolia_Salicifolia Morus_Nigra
Olea_Europaea Phildelphus Populus_Adenopoda Populus_Grandidentata Populus_Nigra Prunus_Avium
Prunus_X_Shmittii Pterocarya_Stenoptera Quercus_Afares Quercus_Agrifolia Quercus_Alnifolia
Quercus_Brantii Quercus_Canariensis Quercus_Castaneifolia Quercus_Cerris Quercus_Chrysolepis
Quercus_Coccifera Quercus_Coccinea Quercus_Crassifolia Quercus_Crassipes Quercus_Dolicholepis
Quercus_Ellipsoidalis Quercus_Greggii Quercus_Hartwissiana Quercus_Ilex Quercus_Imbricaria
Quercus_Infectoria_sub Quercus_Kewensis Quercus_Nigra Quercus_Palustris Quercus_Phellos
Quercus_Phillyraeoides Quercus_Pontica Quercus_Pubescens Quercus_Pyrenaica Quercus_Rhysophylla
Quercus_Rubra Quercus_Semecarpifolia Quercus_Shumardii Quercus_Suber Quercus_Texana
Quercus_Trojana Quercus_Variabilis Quercus_Vulcanica Quercus_x_Hispanica Quercus_x_Turneri
Rhododendron_x_Russellianum Salix_Fragilis Salix_Intergra Sorbus_Aria Tilia_Oliveri
Tilia_Platyphyllos Tilia_Tomentosa Ulmus_Bergmanniana Viburnum_Tinus
Viburnum_x_Rhytidophylloides Zelkova_Serrata
""".split()
assert len(SPECIES) == 99

FEATURES = ["%s%d" % (kind, k) for kind in ("margin", "shape", "texture") for k in range(1, 65)]


def number_text(rs, kind):
    """Feature text the way Kaggle's file writes it: short decimals, zeros as a bare "0"."""
    if kind == "margin" or kind == "texture":
        k = rs.randint(0, 60) if rs.random_sample() < 0.8 else 0
        return "0" if k == 0 else "%.6f" % (k / 1024)
    # Shape values are small; some fall below 1e-4, which Python writes back in exponent form.
    v = rs.uniform(0.00002, 0.0012)
    if rs.random_sample() < 0.02:
        return repr(v)  # a full-precision value: read_csv must round-trip it exactly
    return "%.8f" % v


def leaf_rows(rs, n):
    ids = np.sort(rs.choice(np.arange(1, 3 * n), size=n, replace=False))
    lines = []
    for i in ids:
        cells = [str(i), SPECIES[rs.randint(0, len(SPECIES))]]
        cells += [number_text(rs, f.rstrip("0123456789")) for f in FEATURES]
        lines.append(",".join(cells))
    return ids, lines


def fake_jpg(tag):
    return b"\xff\xd8\xff\xe0 fake leaf silhouette " + tag.encode() + b"\xff\xd9"


def make_raw(raw):
    rs = np.random.RandomState(99)
    ids, lines = leaf_rows(rs, 160)
    header = ",".join(["id", "species"] + FEATURES)
    write_zip_members(os.path.join(raw, "train.csv.zip"), {"train.csv": ("\n".join([header] + lines) + "\n").encode()})
    # Kaggle's unlabelled test rows: their silhouettes are in images.zip too, but upstream never uses them.
    test_ids = [i for i in range(1, 3 * 160 + 20) if i not in set(ids)][:12]
    test_lines = [",".join([str(i)] + [number_text(rs, f.rstrip("0123456789")) for f in FEATURES]) for i in test_ids]
    write_zip_members(os.path.join(raw, "test.csv.zip"), {"test.csv": ("\n".join([",".join(["id"] + FEATURES)] + test_lines) + "\n").encode()})
    sample = "id," + ",".join(SPECIES) + "\n" + "".join("%d%s\n" % (i, ",0.010101" * len(SPECIES)) for i in test_ids)
    write_zip_members(os.path.join(raw, "sample_submission.csv.zip"), {"sample_submission.csv": sample.encode()})
    images = {"images/%d.jpg" % i: fake_jpg(str(i)) for i in sorted(list(ids) + test_ids)}
    write_zip_members(os.path.join(raw, "images.zip"), images)


def prepare(raw, public, private):
    for name in ("train.csv.zip", "images.zip"):
        with zipfile.ZipFile(os.path.join(raw, name)) as z:
            z.extractall(raw)
    leaves = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, test = train_test_split(leaves, test_size=0.1, random_state=0)
    public_test = test.drop(columns=["species"])
    # One-hot answers over the 99 species, like the submissions.
    labelled = test[["id", "species"]]
    answers = pd.DataFrame(0, index=labelled.index, columns=["id"] + SPECIES)
    answers["id"] = labelled["id"]
    for label, row in labelled.iterrows():
        answers.loc[label, row["species"]] = 1
    os.makedirs(os.path.join(public, "images"), exist_ok=True)
    os.makedirs(os.path.join(private, "images"), exist_ok=True)
    for frame in (train, public_test):
        for i in frame["id"]:
            shutil.copyfile(os.path.join(raw, "images", "%s.jpg" % i), os.path.join(public, "images", "%s.jpg" % i))
    sample = answers.copy()
    sample[SPECIES] = 1 / len(SPECIES)
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    public_test.to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
