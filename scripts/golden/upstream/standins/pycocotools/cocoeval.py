"""Stand-in for pycocotools 2.0.8's `COCOeval` with iouType "bbox" (segm and keypoints are not
reproduced), following its algorithm step for step because AP depends on the details:

* evaluate(): per (category, area range, image) -- gts that are crowd (iscrowd) or outside the area
  range are ignored and sorted last (stable); detections are sorted by descending score (stable
  mergesort) and cut to the largest maxDets. At each IoU threshold t, each detection in turn takes
  the best still-free gt with IoU >= min(t, 1 - 1e-10) (crowd gts never become taken), preferring
  regular gts: once one is matched it stops at the first ignored gt. A detection matched to an
  ignored gt is ignored; an unmatched detection outside the area range is ignored too.
* Matches are recorded as the partner's annotation id, and "matched" means that id is nonzero, as
  in pycocotools: a match to a gt with id 0 counts as a false positive, and a gt matched by a
  detection with id 0 stays free for the next detection.
* accumulate(): per category, area range and maxDets, detections of all images are merged by
  descending score (stable), cumulative TP/FP give recall tp/npig and precision
  tp/(tp+fp+eps), precision is made non-increasing from the right, and it is read at the 101
  recall thresholds through np.searchsorted(recall, recThrs, side='left'); thresholds beyond the
  last recall reached get 0. Settings without any non-ignored gt keep -1.
* summarize(): the mean of the entries > -1 of the selected slice (-1 if none), printed and kept
  in `stats` (12 numbers)."""
import copy
import datetime
from collections import defaultdict

import numpy as np

from . import mask as maskUtils


def _by_score(dets):
    return np.argsort([-d["score"] for d in dets], kind="mergesort")


class COCOeval:
    def __init__(self, cocoGt=None, cocoDt=None, iouType="segm"):
        self.cocoGt = cocoGt
        self.cocoDt = cocoDt
        self.evalImgs = defaultdict(list)
        self.eval = {}
        self._gts = defaultdict(list)
        self._dts = defaultdict(list)
        self.params = Params(iouType=iouType)
        self._paramsEval = {}
        self.stats = []
        self.ious = {}
        if cocoGt is not None:
            self.params.imgIds = sorted(cocoGt.getImgIds())
            self.params.catIds = sorted(cocoGt.getCatIds())

    def _prepare(self):
        p = self.params
        cats = {"catIds": p.catIds} if p.useCats else {}
        gts = self.cocoGt.loadAnns(self.cocoGt.getAnnIds(imgIds=p.imgIds, **cats))
        dts = self.cocoDt.loadAnns(self.cocoDt.getAnnIds(imgIds=p.imgIds, **cats))
        for gt in gts:
            # pycocotools sets 'ignore' from iscrowd alone (any given 'ignore' is overwritten).
            gt["ignore"] = "iscrowd" in gt and gt["iscrowd"]
        self._gts = defaultdict(list)
        self._dts = defaultdict(list)
        for gt in gts:
            self._gts[gt["image_id"], gt["category_id"]].append(gt)
        for dt in dts:
            self._dts[dt["image_id"], dt["category_id"]].append(dt)
        self.evalImgs = defaultdict(list)
        self.eval = {}

    def _pair(self, imgId, catId):
        p = self.params
        if p.useCats:
            return self._gts[imgId, catId], self._dts[imgId, catId]
        gt = [g for c in p.catIds for g in self._gts[imgId, c]]
        dt = [d for c in p.catIds for d in self._dts[imgId, c]]
        return gt, dt

    def evaluate(self):
        p = self.params
        if p.useSegm is not None:
            p.iouType = "segm" if p.useSegm == 1 else "bbox"
        if p.iouType != "bbox":
            raise NotImplementedError(f"iouType {p.iouType!r} is not reproduced by this stand-in")
        p.imgIds = list(np.unique(p.imgIds))
        if p.useCats:
            p.catIds = list(np.unique(p.catIds))
        p.maxDets = sorted(p.maxDets)
        self.params = p
        self._prepare()
        catIds = p.catIds if p.useCats else [-1]
        self.ious = {(i, c): self.computeIoU(i, c) for i in p.imgIds for c in catIds}
        # Flat, in the order accumulate() indexes it: category, then area range, then image.
        self.evalImgs = [
            self.evaluateImg(i, c, a, p.maxDets[-1]) for c in catIds for a in p.areaRng for i in p.imgIds
        ]
        self._paramsEval = copy.deepcopy(self.params)

    def computeIoU(self, imgId, catId):
        """IoUs of the image's detections (by descending score, at most maxDets[-1]) against its gts."""
        gt, dt = self._pair(imgId, catId)
        if len(gt) == 0 and len(dt) == 0:
            return []
        dt = [dt[i] for i in _by_score(dt)][: self.params.maxDets[-1]]
        return maskUtils.iou([d["bbox"] for d in dt], [g["bbox"] for g in gt], [int(g["iscrowd"]) for g in gt])

    def evaluateImg(self, imgId, catId, aRng, maxDet):
        p = self.params
        gt, dt = self._pair(imgId, catId)
        if len(gt) == 0 and len(dt) == 0:
            return None
        for g in gt:
            g["_ignore"] = 1 if (g["ignore"] or (g["area"] < aRng[0] or g["area"] > aRng[1])) else 0
        gt_order = np.argsort([g["_ignore"] for g in gt], kind="mergesort")
        gt = [gt[i] for i in gt_order]
        dt = [dt[i] for i in _by_score(dt)[0:maxDet]]
        crowd = [int(g["iscrowd"]) for g in gt]
        ious = self.ious[imgId, catId]
        if len(ious) > 0:
            ious = ious[:, gt_order]

        T, G, D = len(p.iouThrs), len(gt), len(dt)
        gtm = np.zeros((T, G))
        dtm = np.zeros((T, D))
        gtIg = np.array([g["_ignore"] for g in gt])
        dtIg = np.zeros((T, D))
        if len(ious) != 0:
            for ti, t in enumerate(p.iouThrs):
                for di, d in enumerate(dt):
                    best, m = min([t, 1 - 1e-10]), -1
                    for gi in range(G):
                        if gtm[ti, gi] > 0 and not crowd[gi]:
                            continue  # taken, and only crowd regions take several detections
                        if m > -1 and gtIg[m] == 0 and gtIg[gi] == 1:
                            break  # gts are sorted regular first: a regular match beats any ignored one
                        if ious[di, gi] < best:
                            continue
                        best, m = ious[di, gi], gi
                    if m == -1:
                        continue
                    dtIg[ti, di] = gtIg[m]
                    dtm[ti, di] = gt[m]["id"]
                    gtm[ti, m] = d["id"]
        outside = np.array([d["area"] < aRng[0] or d["area"] > aRng[1] for d in dt]).reshape((1, len(dt)))
        dtIg = np.logical_or(dtIg, np.logical_and(dtm == 0, np.repeat(outside, T, 0)))
        return {
            "image_id": imgId,
            "category_id": catId,
            "aRng": aRng,
            "maxDet": maxDet,
            "dtIds": [d["id"] for d in dt],
            "gtIds": [g["id"] for g in gt],
            "dtMatches": dtm,
            "gtMatches": gtm,
            "dtScores": [d["score"] for d in dt],
            "gtIgnore": gtIg,
            "dtIgnore": dtIg,
        }

    def accumulate(self, p=None):
        if not self.evalImgs:
            print("Please run evaluate() first")
        if p is None:
            p = self.params
        p.catIds = p.catIds if p.useCats == 1 else [-1]
        T, R, A, M = len(p.iouThrs), len(p.recThrs), len(p.areaRng), len(p.maxDets)
        K = len(p.catIds) if p.useCats else 1
        precision = -np.ones((T, R, K, A, M))
        recall = -np.ones((T, K, A, M))
        scores = -np.ones((T, R, K, A, M))

        pe = self._paramsEval
        evaluated_cats = set(pe.catIds if pe.useCats else [-1])
        evaluated_areas = set(map(tuple, pe.areaRng))
        evaluated_max = set(pe.maxDets)
        evaluated_imgs = set(pe.imgIds)
        k_list = [n for n, k in enumerate(p.catIds) if k in evaluated_cats]
        # pycocotools keeps the maxDets values themselves here (not their positions).
        m_list = [m for m in p.maxDets if m in evaluated_max]
        a_list = [n for n, a in enumerate(map(tuple, p.areaRng)) if a in evaluated_areas]
        i_list = [n for n, i in enumerate(p.imgIds) if i in evaluated_imgs]
        I0, A0 = len(pe.imgIds), len(pe.areaRng)
        for k, k0 in enumerate(k_list):
            for a, a0 in enumerate(a_list):
                for m, maxDet in enumerate(m_list):
                    E = [self.evalImgs[k0 * A0 * I0 + a0 * I0 + i] for i in i_list]
                    E = [e for e in E if e is not None]
                    if len(E) == 0:
                        continue
                    dtScores = np.concatenate([e["dtScores"][0:maxDet] for e in E])
                    order = np.argsort(-dtScores, kind="mergesort")
                    dtScoresSorted = dtScores[order]
                    dtm = np.concatenate([e["dtMatches"][:, 0:maxDet] for e in E], axis=1)[:, order]
                    dtIg = np.concatenate([e["dtIgnore"][:, 0:maxDet] for e in E], axis=1)[:, order]
                    gtIg = np.concatenate([e["gtIgnore"] for e in E])
                    npig = np.count_nonzero(gtIg == 0)
                    if npig == 0:
                        continue
                    tps = np.logical_and(dtm, np.logical_not(dtIg))
                    fps = np.logical_and(np.logical_not(dtm), np.logical_not(dtIg))
                    tp_sum = np.cumsum(tps, axis=1).astype(dtype=float)
                    fp_sum = np.cumsum(fps, axis=1).astype(dtype=float)
                    for t, (tp, fp) in enumerate(zip(tp_sum, fp_sum)):
                        nd = len(tp)
                        rc = tp / npig
                        pr = (tp / (fp + tp + np.spacing(1))).tolist()
                        recall[t, k, a, m] = rc[-1] if nd else 0
                        for i in range(nd - 1, 0, -1):
                            if pr[i] > pr[i - 1]:
                                pr[i - 1] = pr[i]
                        q, ss = np.zeros((R,)), np.zeros((R,))
                        for ri, pi in enumerate(np.searchsorted(rc, p.recThrs, side="left")):
                            if pi >= nd:
                                break  # recall never reaches this threshold: precision stays 0
                            q[ri] = pr[pi]
                            ss[ri] = dtScoresSorted[pi]
                        precision[t, :, k, a, m] = q
                        scores[t, :, k, a, m] = ss
        self.eval = {
            "params": p,
            "counts": [T, R, K, A, M],
            "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
            "precision": precision,
            "recall": recall,
            "scores": scores,
        }

    def summarize(self):
        """The 12 COCO numbers: AP over the IoU thresholds, AP at IoU .5 and .75, AP for small /
        medium / large areas, AR at each maxDets, AR for small / medium / large."""

        def one(ap=1, iouThr=None, areaRng="all", maxDets=100):
            p = self.params
            aind = [i for i, label in enumerate(p.areaRngLbl) if label == areaRng]
            mind = [i for i, m in enumerate(p.maxDets) if m == maxDets]
            s = self.eval["precision"] if ap == 1 else self.eval["recall"]
            if iouThr is not None:
                # An exact comparison: a threshold not among p.iouThrs selects nothing.
                s = s[np.where(iouThr == p.iouThrs)[0]]
            s = s[:, :, :, aind, mind] if ap == 1 else s[:, :, aind, mind]
            mean_s = -1 if len(s[s > -1]) == 0 else np.mean(s[s > -1])
            iou_str = "{:0.2f}:{:0.2f}".format(p.iouThrs[0], p.iouThrs[-1]) if iouThr is None else "{:0.2f}".format(iouThr)
            print(
                " {:<18} {} @[ IoU={:<9} | area={:>6s} | maxDets={:>3d} ] = {:0.3f}".format(
                    "Average Precision" if ap == 1 else "Average Recall",
                    "(AP)" if ap == 1 else "(AR)",
                    iou_str,
                    areaRng,
                    maxDets,
                    mean_s,
                )
            )
            return mean_s

        if not self.eval:
            raise Exception("Please run accumulate() first")
        if self.params.iouType not in ("segm", "bbox"):
            raise NotImplementedError("only the detection summary is reproduced by this stand-in")
        md = self.params.maxDets
        stats = np.zeros((12,))
        stats[0] = one(1)
        stats[1] = one(1, iouThr=0.5, maxDets=md[2])
        stats[2] = one(1, iouThr=0.75, maxDets=md[2])
        stats[3] = one(1, areaRng="small", maxDets=md[2])
        stats[4] = one(1, areaRng="medium", maxDets=md[2])
        stats[5] = one(1, areaRng="large", maxDets=md[2])
        stats[6] = one(0, maxDets=md[0])
        stats[7] = one(0, maxDets=md[1])
        stats[8] = one(0, maxDets=md[2])
        stats[9] = one(0, areaRng="small", maxDets=md[2])
        stats[10] = one(0, areaRng="medium", maxDets=md[2])
        stats[11] = one(0, areaRng="large", maxDets=md[2])
        self.stats = stats

    def __str__(self):
        self.summarize()
        return ""


class Params:
    """Evaluation parameters; the detection defaults of pycocotools."""

    def setDetParams(self):
        self.imgIds = []
        self.catIds = []
        # linspace, not arange: arange's points drift above the intended values.
        self.iouThrs = np.linspace(0.5, 0.95, int(np.round((0.95 - 0.5) / 0.05)) + 1, endpoint=True)
        self.recThrs = np.linspace(0.0, 1.00, int(np.round((1.00 - 0.0) / 0.01)) + 1, endpoint=True)
        self.maxDets = [1, 10, 100]
        self.areaRng = [[0**2, 1e5**2], [0**2, 32**2], [32**2, 96**2], [96**2, 1e5**2]]
        self.areaRngLbl = ["all", "small", "medium", "large"]
        self.useCats = 1

    def __init__(self, iouType="segm"):
        if iouType in ("segm", "bbox"):
            self.setDetParams()
        elif iouType == "keypoints":
            raise NotImplementedError("keypoint evaluation is not reproduced by this stand-in")
        else:
            raise Exception("iouType not supported")
        self.iouType = iouType
        self.useSegm = None
