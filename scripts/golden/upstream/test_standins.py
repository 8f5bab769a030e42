"""Known-value tests of the stand-ins in standins/ (pyquaternion 0.9.9, pycocotools 2.0.8).

  /usr/bin/python3 -m unittest scripts/golden/upstream/test_standins.py
  /usr/bin/python3 scripts/golden/upstream/test_standins.py

Every expected number below is worked out by hand in the comments next to it, never by running the
stand-ins. The stand-ins are imported from standins/ even where the real libraries are installed."""
import contextlib
import io
import json
import math
import os
import sys
import tempfile
import unittest

import numpy as np

STANDINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "standins")
sys.path.insert(0, STANDINS)

from pyquaternion import Quaternion  # noqa: E402
from pycocotools import mask as maskUtils  # noqa: E402
from pycocotools.coco import COCO  # noqa: E402
from pycocotools.cocoeval import COCOeval  # noqa: E402

assert os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["pyquaternion"].__file__))) == STANDINS
assert os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["pycocotools"].__file__))) == STANDINS

H = math.sqrt(0.5)  # cos 45 deg = sin 45 deg
# One true positive alone has precision 1 / (1 + 2**-52) (pycocotools adds np.spacing(1) = 2**-52 to
# the denominator), and the nearest double to that is 1 - 2**-52.
ONE_TP = 1 - 2**-52


def close(test, got, want, tol=1e-15):
    np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=0, atol=tol)


class QuaternionTest(unittest.TestCase):
    # (axis, elements of the 90 deg rotation, its rotation matrix, a vector, that vector rotated)
    QUARTER_TURNS = [
        ([1, 0, 0], [H, H, 0, 0], [[1, 0, 0], [0, 0, -1], [0, 1, 0]], [0, 1, 0], [0, 0, 1]),
        ([0, 1, 0], [H, 0, H, 0], [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], [0, 0, 1], [1, 0, 0]),
        ([0, 0, 1], [H, 0, 0, H], [[0, -1, 0], [1, 0, 0], [0, 0, 1]], [1, 0, 0], [0, 1, 0]),
    ]

    def test_quarter_turns(self):
        for axis, elements, matrix, v, rotated in self.QUARTER_TURNS:
            with self.subTest(axis=axis):
                forms = (dict(degrees=90), dict(radians=math.pi / 2), dict(angle=math.pi / 2))
                for q in (Quaternion(axis=axis, **form) for form in forms):
                    close(self, q.elements, elements)
                    close(self, q.rotation_matrix, matrix)
                    out = q.rotate(v)
                    self.assertIsInstance(out, list)
                    close(self, out, rotated)
                    self.assertIsInstance(q.rotate(tuple(v)), tuple)
                    self.assertIsInstance(q.rotate(np.array(v, dtype=float)), np.ndarray)

    def test_constructors(self):
        close(self, Quaternion().q, [1, 0, 0, 0])
        close(self, Quaternion(2).q, [2, 0, 0, 0])
        for q in (Quaternion([1, 2, 3, 4]), Quaternion(1, 2, 3, 4), Quaternion(np.array([1, 2, 3, 4])),
                  Quaternion(array=[1, 2, 3, 4]), Quaternion(scalar=1, vector=[2, 3, 4]),
                  Quaternion(real=1, imaginary=[2, 3, 4]), Quaternion(Quaternion(1, 2, 3, 4))):
            self.assertEqual(q.q.tolist(), [1.0, 2.0, 3.0, 4.0])
            self.assertEqual((q.w, q.x, q.y, q.z), (1.0, 2.0, 3.0, 4.0))
            self.assertEqual(q.scalar, 1.0)
            self.assertEqual(q.vector.tolist(), [2.0, 3.0, 4.0])
        # A non-unit axis is normalised: 180 deg about z is 0 + 0i + 0j + 1k (cos 90 = 0, sin 90 = 1).
        close(self, Quaternion(axis=[0, 0, 2], degrees=180).q, [0, 0, 0, 1])

    def test_zero_angle_is_positive_zero(self):
        # radians=0.0 and -0.0 are falsy, so pyquaternion's `or` chain ends at +0.0: identity with
        # sin(+0.0) = +0.0 in z, even for -0.0.
        for zero in (0.0, -0.0):
            q = Quaternion(axis=[0, 0, 1], radians=zero)
            self.assertEqual(q.q.tolist(), [1.0, 0.0, 0.0, 0.0])
            self.assertFalse(np.signbit(q.q[3]))

    def test_iteration_is_four_numbers(self):
        # 180 deg about z: [cos 90, 0, 0, sin 90] = [0, 0, 0, 1]; list() goes through __getitem__.
        values = list(Quaternion(axis=[0, 0, 1], radians=math.pi))
        self.assertEqual(len(values), 4)
        close(self, values, [0, 0, 0, 1])
        self.assertTrue(all(isinstance(v, np.float64) for v in values))

    def test_box_heading(self):
        # What mAP_evaluation.Box3D reads: R[0,0] = cos(yaw), R[1,0] = sin(yaw); yaw = 30 deg.
        r = Quaternion(list(Quaternion(axis=[0, 0, 1], radians=math.pi / 6))).rotation_matrix
        close(self, [r[0, 0], r[1, 0]], [math.sqrt(3) / 2, 0.5])

    def test_product_and_composition(self):
        # (1 + 2i + 3j + 4k)(5 + 6i + 7j + 8k): w = 5 - (12 + 21 + 32) = -60,
        # v = 1*(6,7,8) + 5*(2,3,4) + (2,3,4)x(6,7,8) = (6,7,8) + (10,15,20) + (-4,8,-4) = (12,30,24).
        self.assertEqual((Quaternion(1, 2, 3, 4) * Quaternion(5, 6, 7, 8)).q.tolist(), [-60.0, 12.0, 30.0, 24.0])
        close(self, (2 * Quaternion(1, 2, 3, 4)).q, [2, 4, 6, 8])
        # z90 * x90 = (H,0,0,H)(H,H,0,0): w = 1/2, v = H*(H,0,0) + H*(0,0,H) + (0,0,H)x(H,0,0) = (1/2, 1/2, 1/2).
        # That is 120 deg about (1,1,1): x -> y -> z -> x (x90 first, then z90).
        q = Quaternion(axis=[0, 0, 1], degrees=90) * Quaternion(axis=[1, 0, 0], degrees=90)
        close(self, q.q, [0.5, 0.5, 0.5, 0.5])
        close(self, q.rotate([1, 0, 0]), [0, 1, 0])
        close(self, q.rotate([0, 1, 0]), [0, 0, 1])
        close(self, q.rotation_matrix, [[0, 0, 1], [1, 0, 0], [0, 1, 0]])

    def test_inverse_conjugate_norm(self):
        q = Quaternion(1, 2, 3, 4)
        # |q|^2 = 1 + 4 + 9 + 16 = 30; q^-1 = conj(q) / 30.
        close(self, q.inverse.q, [1 / 30, -2 / 30, -3 / 30, -4 / 30])
        self.assertEqual(q.conjugate.q.tolist(), [1.0, -2.0, -3.0, -4.0])
        close(self, (q * q.inverse).q, [1, 0, 0, 0])
        close(self, [q.norm, abs(q)], [math.sqrt(30)] * 2)
        close(self, q.normalised.q, np.array([1, 2, 3, 4]) / math.sqrt(30))
        self.assertEqual(q.q.tolist(), [1.0, 2.0, 3.0, 4.0])  # .normalised leaves q alone
        r = Quaternion(axis=[0, 1, 0], degrees=90)
        close(self, r.inverse.rotation_matrix, np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]).T)
        with self.assertRaises(ZeroDivisionError):
            Quaternion(0, 0, 0, 0).inverse

    def test_rotation_matrix_of_non_unit_quaternion(self):
        # Of (1,2,3,4)/sqrt(30): entries (w^2+x^2-y^2-z^2, 2(xy-wz), 2(xz+wy); 2(xy+wz), w^2-x^2+y^2-z^2,
        # 2(yz-wx); 2(xz-wy), 2(yz+wx), w^2-x^2-y^2+z^2) / 30 with w,x,y,z = 1,2,3,4.
        q = Quaternion(1, 2, 3, 4)
        r = q.rotation_matrix
        close(self, r, np.array([[-20, 4, 22], [20, -10, 20], [10, 28, 4]]) / 30)
        close(self, r @ r.T, np.eye(3))
        close(self, np.linalg.det(r), 1.0)
        # pyquaternion normalises the object itself on the way.
        close(self, q.q, np.array([1, 2, 3, 4]) / math.sqrt(30))
        t = Quaternion(axis=[1, 0, 0], degrees=90).transformation_matrix
        close(self, t, [[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])

    # (quaternion, (yaw, pitch, roll)) -- pyquaternion's convention: the rotation is
    # R_x(roll) R_y(pitch) R_z(yaw), i.e. the quaternion qx(roll) * qy(pitch) * qz(yaw).
    def test_yaw_pitch_roll(self):
        def qx(a):
            return Quaternion(axis=[1, 0, 0], radians=a)

        def qy(a):
            return Quaternion(axis=[0, 1, 0], radians=a)

        def qz(a):
            return Quaternion(axis=[0, 0, 1], radians=a)

        cases = [
            (qz(0.3), (0.3, 0.0, 0.0)),
            (qy(0.2), (0.0, 0.2, 0.0)),
            (qx(0.4), (0.0, 0.0, 0.4)),
            (Quaternion(axis=[0, 0, 1], degrees=90), (math.pi / 2, 0.0, 0.0)),
            # qy(b) qz(a) = (cy cz, sy sz, sy cz, cy sz) in half angles: 2(wz - xy) = sin a cos b,
            # 1 - 2(y^2 + z^2) = cos a cos b, so yaw = a; 2(wy + zx) = sin b; 2(wx - yz) = 0.
            # (The textbook z-y-x formula, 2(wz + xy), would give atan2(sin a, cos a cos b) instead.)
            (qy(0.2) * qz(0.5), (0.5, 0.2, 0.0)),
            (qx(0.1) * qy(0.2) * qz(0.3), (0.3, 0.2, 0.1)),
            # Not normalised first: (2, 0, 0, 0) is the identity rotation.
            (Quaternion(2, 0, 0, 0), (0.0, 0.0, 0.0)),
        ]
        for q, want in cases:
            with self.subTest(q=repr(q)):
                close(self, q.yaw_pitch_roll, want, tol=1e-14)

    def test_axis_angle_readback(self):
        q = Quaternion(axis=[0, 1, 0], degrees=90)
        close(self, [q.angle, q.radians, q.degrees], [math.pi / 2, math.pi / 2, 90.0], tol=1e-13)
        close(self, q.axis, [0, 1, 0])
        close(self, Quaternion().axis, [0, 0, 0])  # no rotation: the "undefined" axis
        # 270 deg about z is -90 deg about z, wrapped into (-pi, pi].
        close(self, Quaternion(axis=[0, 0, 1], degrees=270).angle, -math.pi / 2, tol=1e-13)

    def test_equality_tolerance(self):
        self.assertTrue(Quaternion(1, 0, 0, 0) == Quaternion(1 + 1e-15, 0, 0, 0))
        self.assertFalse(Quaternion(1, 0, 0, 0) == Quaternion(1 + 1e-6, 0, 0, 0))
        self.assertTrue(Quaternion(1, 0, 0, 0) == 1)

    def test_invalid_input(self):
        with self.assertRaises(ValueError):
            Quaternion([1, 2, 3])
        with self.assertRaises(ValueError):
            Quaternion(["a", 0, 0, 0])
        with self.assertRaises(TypeError):
            Quaternion(None)
        with self.assertRaises(ValueError):
            Quaternion(radians=1.0)  # no axis
        with self.assertRaises(ZeroDivisionError):
            Quaternion(axis=[0, 0, 0], radians=1.0)
        with self.assertRaises(ValueError):
            Quaternion(axis=[0, 0, 1], radians=float("inf"))  # math.cos(inf): domain error
        # math.cos/sin of NaN are NaN, and NaN * 0 is NaN: every element is NaN.
        self.assertTrue(np.isnan(list(Quaternion(axis=[0, 0, 1], radians=float("nan")))).all())


class BoxIouTest(unittest.TestCase):
    # (detection, ground truth, IoU, IoU when the gt is a crowd region), boxes as [x, y, w, h].
    PAIRS = [
        ([0, 0, 10, 10], [0, 0, 10, 10], 1.0, 1.0),
        # overlap 5x5 = 25, union 100 + 100 - 25 = 175; crowd: 25 / 100.
        ([0, 0, 10, 10], [5, 5, 10, 10], 1 / 7, 0.25),
        # overlap 1x1, union 4 + 4 - 1 = 7; crowd: 1 / 4.
        ([0, 0, 2, 2], [1, 1, 2, 2], 1 / 7, 0.25),
        ([0, 0, 10, 10], [10, 0, 10, 10], 0.0, 0.0),  # touching edges: width 0
        ([0, 0, 10, 10], [20, 20, 5, 5], 0.0, 0.0),
        # detection inside the gt: 4 / 16; crowd: 4 / 4 (the detection's own area).
        ([1, 1, 2, 2], [0, 0, 4, 4], 0.25, 1.0),
        # 5x5 overlap with a 20x20 region: 25 / (100 + 400 - 25) = 1/19; crowd 25 / 100.
        ([45, 45, 10, 10], [50, 50, 20, 20], 1 / 19, 0.25),
        ([0, 0, 10, 5], [0, 0, 10, 10], 0.5, 1.0),  # 50 / (50 + 100 - 50)
        ([0, 0, 10, 7.5], [0, 0, 10, 10], 0.75, 1.0),  # 75 / (75 + 100 - 75)
        # negative width: min(-5, 0) - max(0, -10) = -5 <= 0.
        ([0, 0, -5, 10], [-10, 0, 10, 10], 0.0, 0.0),
        # C fmin/fmax drop a NaN operand: x = NaN gives w = fmin(NaN, 10) - fmax(NaN, 0) = 10, h = 10,
        # areas 100 and 100, so 100 / (100 + 100 - 100) = 1.
        ([float("nan"), 0, 10, 10], [0, 0, 10, 10], 1.0, 1.0),
        # infinite width: overlap 10x10 but the detection's area is inf, 100 / inf = 0.
        ([0, 0, float("inf"), 10], [0, 0, 10, 10], 0.0, 0.0),
    ]

    def test_pairs(self):
        for det, gt, plain, crowd in self.PAIRS:
            with self.subTest(det=det, gt=gt):
                self.assertAlmostEqual(float(maskUtils.iou([det], [gt], [0])[0, 0]), plain, delta=1e-15)
                self.assertAlmostEqual(float(maskUtils.iou([det], [gt], [1])[0, 0]), crowd, delta=1e-15)

    def test_nan_width_gives_nan(self):
        # w and h are still 10 (fmin drops the NaN), but the detection's area NaN * 10 makes the union NaN.
        self.assertTrue(np.isnan(maskUtils.iou([[0, 0, float("nan"), 10]], [[0, 0, 10, 10]], [0])[0, 0]))

    def test_shape_and_inputs(self):
        dets = [[0, 0, 10, 10], [5, 5, 10, 10]]
        gts = [[0, 0, 10, 10], [5, 5, 10, 10], [100, 100, 1, 1]]
        want = [[1, 1 / 7, 0], [1 / 7, 1, 0]]  # rows are detections, columns ground truths
        close(self, maskUtils.iou(dets, gts, [0, 0, 0]), want)
        close(self, maskUtils.iou(np.array(dets), np.array(gts), [0, 0, 0]), want)
        close(self, maskUtils.iou([np.array(d) for d in dets], gts, [0, 0, 0]), want)
        self.assertEqual(maskUtils.iou([], gts, [0, 0, 0]), [])
        self.assertEqual(maskUtils.iou(dets, [], []), [])
        with self.assertRaises(AssertionError):
            maskUtils.iou(dets, gts, [0])
        with self.assertRaises(Exception):
            maskUtils.iou([(0, 0, 1, 1)], gts, [0, 0, 0])  # tuples are not boxes to pycocotools
        with self.assertRaises(Exception):
            maskUtils.iou([[0, 0, 1]], gts, [0, 0, 0])


def gt_ann(id, bbox, image=1, cat=1, crowd=0, area=None):
    return {"id": id, "image_id": image, "category_id": cat, "bbox": bbox, "iscrowd": crowd,
            "area": bbox[2] * bbox[3] if area is None else area}


def dt_ann(id, bbox, score, image=1, cat=1, area=None):
    return {"id": id, "image_id": image, "category_id": cat, "bbox": bbox, "score": score, "iscrowd": 0,
            "area": bbox[2] * bbox[3] if area is None else area}


def index(anns, images=(1,), cats=(1,)):
    """A COCO built the way vinbigdata's grader builds its own: .dataset, then createIndex()."""
    coco = COCO()
    coco.dataset = {"images": [{"id": i} for i in images], "categories": [{"id": c, "name": str(c)} for c in cats],
                    "annotations": anns}
    coco.createIndex()
    return coco


def evaluate(gts, dts, images=(1,), cats=(1,), **params):
    E = COCOeval(index(gts, images, cats), index(dts, images, cats), "bbox")
    for name, value in params.items():
        setattr(E.params, name, value)
    with contextlib.redirect_stdout(io.StringIO()):  # summarize() prints its table
        E.evaluate()
        E.accumulate()
        E.summarize()
    return E


BOX = [0, 0, 10, 10]  # area 100: "small" (< 32^2)
FAR = [50, 50, 10, 10]  # IoU 0 with BOX


class CocoEvalTest(unittest.TestCase):
    def assertStats(self, E, want, tol=1e-12):
        close(self, E.stats, want, tol=tol)

    def test_thresholds(self):
        p = COCOeval(iouType="bbox").params
        # The points COCO's summary reads exactly: 0.5 and 0.75 among the IoU thresholds, and recall
        # 0.5 at index 50 of the 101 recall thresholds.
        self.assertEqual(len(p.iouThrs), 10)
        self.assertEqual(p.iouThrs[0], 0.5)
        self.assertEqual(p.iouThrs[5], 0.75)
        self.assertEqual(len(p.recThrs), 101)
        self.assertEqual(p.recThrs[50], 0.5)
        self.assertEqual(p.maxDets, [1, 10, 100])

    def test_one_perfect_detection(self):
        E = evaluate([gt_ann(1, BOX)], [dt_ann(1, BOX, 0.9)])
        # Every precision entry of the small / all ranges is ONE_TP; medium and large hold no gt: -1.
        # Recall is exactly 1/1 everywhere there is a gt.
        self.assertTrue((E.eval["precision"][:, :, 0, 0, :] == ONE_TP).all())
        self.assertStats(E, [1, 1, 1, 1, -1, -1, 1, 1, 1, 1, -1, -1])
        self.assertEqual(E.stats[6], 1.0)

    def test_duplicate_detection(self):
        # The second copy finds its gt taken: tp = [1, 1], fp = [0, 1], recall [1, 1], precision
        # [ONE_TP, 1/2] -> every recall threshold reads index 0: AP = ONE_TP.
        E = evaluate([gt_ann(1, BOX)], [dt_ann(1, BOX, 0.9), dt_ann(2, BOX, 0.8)])
        self.assertTrue((E.eval["precision"][:, :, 0, 0, 2] == ONE_TP).all())
        self.assertStats(E, [1, 1, 1, 1, -1, -1, 1, 1, 1, 1, -1, -1])

    def test_missed_gt(self):
        # Two gts, one found: recall [1/2], precision [ONE_TP] for recall thresholds 0.00..0.50 (51 of
        # them), 0 for 0.51..1.00. AP = 51/101, AR = 1/2.
        E = evaluate([gt_ann(1, BOX), gt_ann(2, FAR)], [dt_ann(1, BOX, 0.9)])
        a = 51 / 101
        self.assertStats(E, [a, a, a, a, -1, -1, 0.5, 0.5, 0.5, 0.5, -1, -1])

    def test_false_positive_ranked_first(self):
        # tp = [0, 1], fp = [1, 1]: recall [0, 1], precision [0, 1/2] -> envelope [1/2, 1/2]; AP = 1/2 exactly.
        E = evaluate([gt_ann(1, BOX)], [dt_ann(1, FAR, 0.9), dt_ann(2, BOX, 0.8)])
        self.assertEqual(E.stats[0], 0.5)
        self.assertStats(E, [0.5, 0.5, 0.5, 0.5, -1, -1, 0, 1, 1, 1, -1, -1])  # AR@1 sees only the FP

    def test_stable_order_of_tied_scores(self):
        # Equal scores keep their input order (mergesort): FP first -> 1/2 as above; TP first -> ONE_TP.
        fp_first = evaluate([gt_ann(1, BOX)], [dt_ann(1, FAR, 0.5), dt_ann(2, BOX, 0.5)])
        tp_first = evaluate([gt_ann(1, BOX)], [dt_ann(1, BOX, 0.5), dt_ann(2, FAR, 0.5)])
        self.assertEqual(fp_first.stats[0], 0.5)
        self.assertAlmostEqual(tp_first.stats[0], 1.0, delta=1e-12)
        # Past 16 elements numpy's default sort is no longer stable, so 20 ties tell them apart. The hit
        # second in input order stays second: tp = [0, 1, 1, ...], fp = [1, 1, 2, ...], recall [0, 1, ...],
        # precision [0, 1/2, 1/3, ...] -> envelope 1/2 at every recall threshold: AP = 1/2 exactly.
        dts = [dt_ann(k + 1, BOX if k == 1 else FAR, 0.5) for k in range(20)]
        self.assertEqual(evaluate([gt_ann(1, BOX)], dts).stats[0], 0.5)

    def test_crowd_region(self):
        # gt 2 is a 20x20 crowd region; both small detections lie inside it (crowd IoU = 25/25 = 1),
        # both match it (a crowd gt is never "taken") and are ignored. Only the first detection counts:
        # tp = [1], AP = ONE_TP, recall 1 (the crowd gt is not among the gts to find).
        gts = [gt_ann(1, BOX), gt_ann(2, [50, 50, 20, 20], crowd=1)]
        dts = [dt_ann(1, BOX, 0.9), dt_ann(2, [55, 55, 5, 5], 0.8), dt_ann(3, [60, 60, 5, 5], 0.7)]
        E = evaluate(gts, dts)
        self.assertStats(E, [1, 1, 1, 1, -1, -1, 1, 1, 1, 1, -1, -1])
        small = [e for e in E.evalImgs if e is not None and e["aRng"] == [0, 32**2]][0]
        self.assertEqual(small["dtIgnore"].tolist(), [[False, True, True]] * 10)
        self.assertEqual(small["gtIgnore"].tolist(), [0, 1])
        # Without the crowd flag the two are false positives (IoU 25/400) and gt 2 is missed:
        # tp = [1,1,1] -> [1,0,0], recall 1/2 then flat; AP = 51/101 (as test_missed_gt).
        gts = [gt_ann(1, BOX), gt_ann(2, [50, 50, 20, 20], crowd=0)]
        E = evaluate(gts, [dt_ann(1, BOX, 0.9), dt_ann(2, [55, 55, 5, 5], 0.8), dt_ann(3, [60, 60, 5, 5], 0.7)])
        self.assertAlmostEqual(E.stats[0], 51 / 101, delta=1e-12)

    def test_iou_exactly_one_half(self):
        # IoU 0.5 (see BoxIouTest) matches at threshold 0.5 (not "< 0.5") and at no other: AP at 0.5 is
        # ONE_TP, AP at 0.75 is 0, the mean over the 10 thresholds is 1/10.
        E = evaluate([gt_ann(1, BOX)], [dt_ann(1, [0, 0, 10, 5], 0.9)])
        self.assertEqual(E.stats[2], 0.0)
        self.assertStats(E, [0.1, 1, 0, 0.1, -1, -1, 0.1, 0.1, 0.1, 0.1, -1, -1])

    def test_iou_exactly_three_quarters(self):
        # IoU 0.75 matches at 0.50 .. 0.75 (6 thresholds), not at 0.80 .. 0.95: AP = 6/10.
        E = evaluate([gt_ann(1, BOX)], [dt_ann(1, [0, 0, 10, 7.5], 0.9)])
        self.assertStats(E, [0.6, 1, 1, 0.6, -1, -1, 0.6, 0.6, 0.6, 0.6, -1, -1])

    def test_threshold_one_is_capped(self):
        # At threshold 1.0 pycocotools asks for IoU >= min(1.0, 1 - 1e-10): a box of height 1 - 5e-11
        # inside a unit box has IoU 1 - 5e-11 and still matches.
        E = evaluate([gt_ann(1, [0, 0, 1, 1])], [dt_ann(1, [0, 0, 1, 1 - 5e-11], 0.9)], iouThrs=np.array([1.0]))
        self.assertTrue((E.eval["precision"][0, :, 0, 0, 2] == ONE_TP).all())

    def test_vinbigdata_threshold(self):
        # A single threshold 0.4: IoU 0.45 (45 / (45 + 100 - 45)) matches; the summary's 0.5 and 0.75
        # rows select no threshold and give -1.
        E = evaluate([gt_ann(1, BOX)], [dt_ann(1, [0, 0, 10, 4.5], 0.9)], iouThrs=np.array([0.4]))
        self.assertStats(E, [1, -1, -1, 1, -1, -1, 1, 1, 1, 1, -1, -1])

    def test_max_dets(self):
        # maxDets 1 keeps only the top-scored detection, a FP: AR@1 = 0; AR@10 = AR@100 = 1.
        E = evaluate([gt_ann(1, BOX)], [dt_ann(1, FAR, 0.9), dt_ann(2, BOX, 0.8)])
        self.assertEqual(E.stats[6], 0.0)
        self.assertEqual(E.stats[8], 1.0)

    def test_area_ranges(self):
        # A 40x40 gt (1600: medium, between 32^2 and 96^2) found exactly: medium AP ~1, small/large -1.
        E = evaluate([gt_ann(1, [0, 0, 40, 40])], [dt_ann(1, [0, 0, 40, 40], 0.9)])
        self.assertStats(E, [1, 1, 1, -1, 1, -1, 1, 1, 1, -1, 1, -1])
        # The `area` field decides, not the box: a 10x10 box declared 5000 is medium.
        E = evaluate([gt_ann(1, BOX, area=5000)], [dt_ann(1, BOX, 0.9, area=5000)])
        self.assertStats(E, [1, 1, 1, -1, 1, -1, 1, 1, 1, -1, 1, -1])
        # A higher-scored unmatched detection of area 5000 is a FP over all areas (AP 1/2, as in
        # test_false_positive_ranked_first) but ignored in the small range (AP ~1 there).
        E = evaluate([gt_ann(1, BOX)], [dt_ann(1, FAR, 0.95, area=5000), dt_ann(2, BOX, 0.9)])
        self.assertEqual(E.stats[0], 0.5)
        self.assertAlmostEqual(E.stats[3], 1.0, delta=1e-12)

    def test_categories(self):
        # cat 1 found (~1), cat 2 missed (precision 0 at every threshold), cat 3 has a detection but no
        # gt, so it stays -1 and is left out: mean (1 + 0) / 2.
        gts = [gt_ann(1, BOX, cat=1), gt_ann(2, FAR, cat=2)]
        dts = [dt_ann(1, BOX, 0.9, cat=1), dt_ann(2, [20, 20, 5, 5], 0.8, cat=3)]
        E = evaluate(gts, dts, cats=(1, 2, 3))
        self.assertAlmostEqual(E.stats[0], 0.5, delta=1e-12)
        self.assertTrue((E.eval["precision"][:, :, 1, 0, 2] == 0).all())
        self.assertTrue((E.eval["precision"][:, :, 2, :, :] == -1).all())

    def test_use_cats_off(self):
        # A detection labelled 2 on a gt labelled 1: wrong class with categories (cat 1 AP 0, cat 2
        # has no gt: -1), a hit without them.
        gts, dts = [gt_ann(1, BOX, cat=1)], [dt_ann(1, BOX, 0.9, cat=2)]
        self.assertEqual(evaluate(gts, dts, cats=(1, 2)).stats[0], 0.0)
        self.assertAlmostEqual(evaluate(gts, [dict(d) for d in dts], cats=(1, 2), useCats=0).stats[0], 1.0, delta=1e-12)

    def test_images_merged_by_score(self):
        # Image 1: hit at score 0.6. Image 2: a FP at 0.9 and its gt missed. Merged: tp = [0, 1],
        # fp = [1, 1], 2 gts: recall [0, 1/2], precision [0, 1/2] -> [1/2, 1/2]; 51 thresholds <= 1/2
        # read 1/2, the rest 0: AP = 25.5 / 101.
        gts = [gt_ann(1, BOX, image=1), gt_ann(2, BOX, image=2)]
        dts = [dt_ann(1, BOX, 0.6, image=1), dt_ann(2, FAR, 0.9, image=2)]
        E = evaluate(gts, dts, images=(1, 2))
        self.assertAlmostEqual(E.stats[0], 25.5 / 101, delta=1e-12)

    def test_gt_id_zero_is_never_matched(self):
        # Matches are stored as the gt's id and "matched" means nonzero: a perfect hit on gt id 0 is a
        # false positive. tp = [0]: precision 0 at recall 0, nothing beyond: AP 0, AR 0.
        E = evaluate([gt_ann(0, BOX)], [dt_ann(1, BOX, 0.9)])
        self.assertEqual(E.stats[0], 0.0)
        self.assertEqual(E.stats[8], 0.0)

    def test_detection_id_zero_leaves_gt_free(self):
        # The gt matched by detection id 0 records 0, i.e. stays free, so the next copy matches it too:
        # tp = [1, 1] with 1 gt -> recall [1, 2], precision [ONE_TP, 2/(2 + 2**-52) = 1] -> envelope
        # [1, 1]: AP exactly 1, AR 2.
        E = evaluate([gt_ann(1, BOX)], [dt_ann(0, BOX, 0.9), dt_ann(1, BOX, 0.8)])
        self.assertEqual(E.stats[0], 1.0)
        self.assertEqual(E.stats[8], 2.0)

    def test_repeated_annotation_id(self):
        # The id -> annotation index keeps the last dict for a repeated id, so the gt list becomes the
        # second box twice; the detection on the first box is a FP and neither gt is found: AP 0.
        E = evaluate([gt_ann(1, BOX), gt_ann(1, FAR)], [dt_ann(1, BOX, 0.9)])
        self.assertEqual(E.stats[0], 0.0)

    def test_summary_needs_accumulate(self):
        E = COCOeval(index([gt_ann(1, BOX)]), index([dt_ann(1, BOX, 0.9)]), "bbox")
        with self.assertRaises(Exception):
            E.summarize()


class CocoIndexTest(unittest.TestCase):
    DATASET = {
        "images": [{"id": 1}, {"id": 2}, {"id": 3}],
        "categories": [{"id": 1, "name": "cat", "supercategory": "animal"}, {"id": 2, "name": "dog", "supercategory": "animal"},
                       {"id": 3, "name": "car", "supercategory": "vehicle"}],
        "annotations": [gt_ann(10, [0, 0, 2, 2], image=1, cat=1), gt_ann(11, [0, 0, 3, 3], image=1, cat=2, crowd=1),
                        gt_ann(12, [0, 0, 4, 4], image=2, cat=2), gt_ann(13, [0, 0, 5, 5], image=3, cat=3)],
    }

    def test_queries(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "instances.json")
            with open(path, "w") as f:
                json.dump(self.DATASET, f)
            coco = COCO(path)
        self.assertEqual(sorted(coco.getImgIds()), [1, 2, 3])
        self.assertEqual(sorted(coco.getImgIds(catIds=[2])), [1, 2])
        self.assertEqual(sorted(coco.getImgIds(imgIds=[1, 3], catIds=2)), [1])
        self.assertEqual(coco.getCatIds(), [1, 2, 3])
        self.assertEqual(coco.getCatIds(supNms="animal"), [1, 2])
        self.assertEqual(coco.getCatIds(catNms=["car"]), [3])
        self.assertEqual(coco.getAnnIds(), [10, 11, 12, 13])
        self.assertEqual(coco.getAnnIds(imgIds=1), [10, 11])
        self.assertEqual(coco.getAnnIds(catIds=[2]), [11, 12])
        self.assertEqual(coco.getAnnIds(imgIds=[1, 2], iscrowd=0), [10, 12])
        # areas 4, 9, 16, 25: strictly inside (9, 25) is only 16
        self.assertEqual(coco.getAnnIds(areaRng=[9, 25]), [12])
        self.assertEqual(coco.loadAnns(12)[0]["bbox"], [0, 0, 4, 4])
        self.assertEqual([a["id"] for a in coco.loadAnns([13, 10])], [13, 10])
        self.assertEqual(coco.loadCats(3)[0]["name"], "car")
        self.assertEqual(coco.loadImgs([2]), [{"id": 2}])

    def test_load_res(self):
        coco = index([gt_ann(1, BOX)])
        res = coco.loadRes([{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.5},
                            {"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.9}])
        first = res.loadAnns(1)[0]
        # ids 1.., area w*h = 12, not crowd, segmentation the rectangle x1,y1, x1,y2, x2,y2, x2,y1.
        self.assertEqual((first["id"], first["area"], first["iscrowd"]), (1, 12, 0))
        self.assertEqual(first["segmentation"], [[1, 2, 1, 6, 4, 6, 4, 2]])
        self.assertEqual(res.getAnnIds(), [1, 2])
        E = COCOeval(coco, res, "bbox")
        with contextlib.redirect_stdout(io.StringIO()):
            E.evaluate()
            E.accumulate()
            E.summarize()
        # The 0.9 box is a hit, the 0.5 one (IoU 12/100) a FP: AP = ONE_TP as in test_duplicate_detection.
        self.assertAlmostEqual(E.stats[0], 1.0, delta=1e-12)
        with self.assertRaises(AssertionError):
            coco.loadRes([{"image_id": 7, "category_id": 1, "bbox": BOX, "score": 0.5}])
        array_res = coco.loadRes(np.array([[1, 0, 0, 10, 10, 0.9, 1]]))
        self.assertEqual(array_res.loadAnns(1)[0]["bbox"], [0, 0, 10, 10])


if __name__ == "__main__":
    unittest.main()
