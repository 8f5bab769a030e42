"""Stand-in for pycocotools 2.0.8's `mask.iou` on bounding boxes (its C `bbIou`).

Boxes are [x, y, width, height]. For each detection d and ground truth g the overlap is
  w = min(xd+wd, xg+wg) - max(xd, xg),  h = the same in y,
and the IoU is 0 when w <= 0 or h <= 0 (so a NaN overlap passes through, as in C), otherwise
w*h / union with union = area(d) + area(g) - w*h, or just area(d) when g is a crowd region. Areas
here are width*height of the boxes, never an annotation's `area` field. min/max are C's fmin/fmax
(a NaN operand yields the other one), i.e. numpy's fmin/fmax.

Run-length-encoded masks (and with them encode/decode/area/toBbox/merge/frPyObjects) are not
reproduced."""
import numpy as np


def _boxes(objs):
    """An N x 4 float64 array of boxes, or objs itself when empty (pycocotools' input rules)."""
    if len(objs) == 0:
        return objs
    if type(objs) == np.ndarray:
        # pycocotools reshapes a 1-D array into a column, which is never N x 4, and refuses it.
        if objs.ndim != 2 or objs.shape[1] != 4:
            raise Exception("numpy ndarray input is only for *bounding boxes* and should have Nx4 dimension")
        return objs.astype(np.double)
    if type(objs) == list:
        if all(len(o) == 4 and type(o) in (list, np.ndarray) for o in objs):
            boxes = np.array(objs, dtype=np.double)
            return boxes.reshape((1, boxes.shape[0])) if boxes.ndim == 1 else boxes
        if all(type(o) == dict for o in objs):
            raise NotImplementedError("RLE masks are not reproduced by this stand-in")
        raise Exception("list input can be bounding box (Nx4) or RLEs ([RLE])")
    raise Exception("unrecognized type.  The following type: RLEs (rle), np.ndarray (box), and list (box) are supported.")


def iou(dt, gt, iscrowd):
    """m x n array of IoUs between m detections and n ground truths; [] when either is empty."""
    crowd = np.array(iscrowd, dtype=np.uint8)
    dt, gt = _boxes(dt), _boxes(gt)
    m = 0 if len(dt) == 0 else dt.shape[0]
    n = 0 if len(gt) == 0 else gt.shape[0]
    assert len(iscrowd) == n, "iou(iscrowd=) must have the same length as gt"
    if m == 0 or n == 0:
        return []
    d, g = dt[:, None, :], gt[None, :, :]
    with np.errstate(all="ignore"):
        det_area = d[..., 2] * d[..., 3]
        gt_area = g[..., 2] * g[..., 3]
        w = np.fmin(d[..., 2] + d[..., 0], g[..., 2] + g[..., 0]) - np.fmax(d[..., 0], g[..., 0])
        h = np.fmin(d[..., 3] + d[..., 1], g[..., 3] + g[..., 1]) - np.fmax(d[..., 1], g[..., 1])
        inter = w * h
        union = np.where(crowd[None, :] != 0, det_area, det_area + gt_area - inter)
        out = np.where((w <= 0) | (h <= 0), 0.0, inter / union)
    return out
