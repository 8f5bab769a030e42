"""Stand-in for pyquaternion 0.9.9's `Quaternion` (the parts a caller of its rotation API meets).

Quaternions are scalar-first numpy 4-vectors [w, x, y, z] with the Hamilton product. The numbers
come out of the same floating-point operations pyquaternion performs (math.sin/cos for axis-angle,
numpy dot products of the 4x4 left/right multiplication matrices for products and the rotation
matrix), so results agree with the real library bit for bit on the same numpy.

Not reproduced: construction from a rotation matrix, random(), exp/log and the Riemannian maps,
slerp/intermediates, derivative/integrate and the division and power operators."""
from math import atan2, cos, pi, sin, sqrt

import numpy as np

__version__ = "0.9.9"


def _numbers(seq, n):
    """A float64 array of exactly n numbers; None or an empty sequence stand for n zeros."""
    if seq is None:
        return np.zeros(n)
    if len(seq) == n:
        try:
            values = [float(e) for e in seq]
        except ValueError:
            raise ValueError(f"One or more elements in sequence <{seq!r}> cannot be interpreted as a real number")
        return np.asarray(values)
    if len(seq) == 0:
        return np.zeros(n)
    raise ValueError(f"Unexpected number of elements in sequence. Got: {len(seq)}, Expected: {n}.")


def _scalar(value):
    return 0.0 if value is None else float(value)


class Quaternion:
    """w + xi + yj + zk, held in `q` as the numpy array [w, x, y, z]."""

    def __init__(self, *args, **kwargs):
        if len(args) > 1:
            self.q = _numbers(args, 4)
        elif len(args) == 1:
            arg = args[0]
            if isinstance(arg, Quaternion):
                # pyquaternion shares the other object's array rather than copying it.
                self.q = arg.q
                return
            if arg is None:
                raise TypeError(f"Object cannot be initialised from {type(arg)}")
            try:
                self.q = np.array([float(arg), 0.0, 0.0, 0.0])
                return
            except TypeError:
                pass  # not a number, so it must be a sequence of four
            self.q = _numbers(arg, 4)
        elif not kwargs:
            self.q = np.array([1.0, 0.0, 0.0, 0.0])
        elif "scalar" in kwargs or "vector" in kwargs:
            self.q = np.hstack((_scalar(kwargs.get("scalar", 0.0)), _numbers(kwargs.get("vector", []), 3)))
        elif "real" in kwargs or "imaginary" in kwargs:
            self.q = np.hstack((_scalar(kwargs.get("real", 0.0)), _numbers(kwargs.get("imaginary", []), 3)))
        elif any(k in kwargs for k in ("axis", "radians", "degrees", "angle")):
            if "axis" not in kwargs:
                raise ValueError("A valid rotation 'axis' parameter must be provided to describe a meaningful rotation.")
            axis = _numbers(kwargs["axis"], 3)
            # pyquaternion chains these with `or`, so a zero (or -0.0) angle falls through to the
            # next keyword and finally to +0.0.
            angle = kwargs.get("radians") or self.to_radians(kwargs.get("degrees")) or kwargs.get("angle") or 0.0
            self.q = self._from_axis_angle(axis, angle).q
        elif "array" in kwargs:
            self.q = _numbers(kwargs["array"], 4)
        elif "matrix" in kwargs:
            raise NotImplementedError("this stand-in does not build quaternions from matrices")
        else:
            # Any other keywords: their values in the sorted order of their names.
            values = [kwargs[k] for k in sorted(kwargs)]
            self.q = np.array([float(values[0]), 0.0, 0.0, 0.0]) if len(values) == 1 else _numbers(values, 4)

    @classmethod
    def _from_axis_angle(cls, axis, angle):
        mag_sq = np.dot(axis, axis)
        if mag_sq == 0.0:
            raise ZeroDivisionError("Provided rotation axis has no length")
        # An axis already within 1e-12 of unit length is used as given.
        if abs(1.0 - mag_sq) > 1e-12:
            axis = axis / sqrt(mag_sq)
        half = angle / 2.0
        # math.cos/sin: an infinite angle raises ValueError, a NaN one gives NaNs.
        v = axis * sin(half)
        return cls(cos(half), v[0], v[1], v[2])

    @staticmethod
    def to_degrees(angle_rad):
        if angle_rad is not None:
            return float(angle_rad) / pi * 180.0

    @staticmethod
    def to_radians(angle_deg):
        if angle_deg is not None:
            return float(angle_deg) / 180.0 * pi

    # --- representation and access ---------------------------------------------------------------

    def __repr__(self):
        return "Quaternion({!r}, {!r}, {!r}, {!r})".format(*self.q)

    def __str__(self):
        return "{:.3f} {:+.3f}i {:+.3f}j {:+.3f}k".format(*self.q)

    def __hash__(self):
        return hash(tuple(self.q))

    def __float__(self):
        return float(self.q[0])

    # No __iter__: like pyquaternion, iteration goes through __getitem__ until numpy's IndexError,
    # so list(quaternion) is four numpy float64 values.
    def __getitem__(self, index):
        return self.q[int(index)]

    def __setitem__(self, index, value):
        self.q[int(index)] = float(value)

    def __copy__(self):
        return self.__class__(self.q)

    @property
    def elements(self):
        return self.q

    @property
    def scalar(self):
        return self.q[0]

    @property
    def vector(self):
        return self.q[1:4]

    real = scalar
    imaginary = vector

    @property
    def w(self):
        return self.q[0]

    @property
    def x(self):
        return self.q[1]

    @property
    def y(self):
        return self.q[2]

    @property
    def z(self):
        return self.q[3]

    # --- arithmetic -------------------------------------------------------------------------------

    def __eq__(self, other):
        if isinstance(other, Quaternion):
            return np.allclose(self.q, other.q, rtol=1.0e-13, atol=1.0e-14)
        return self == self.__class__(other)

    def __neg__(self):
        return self.__class__(array=-self.q)

    def __add__(self, other):
        if isinstance(other, Quaternion):
            return self.__class__(array=self.q + other.q)
        return self + self.__class__(other)

    __radd__ = __add__

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return -(self - other)

    def __mul__(self, other):
        if isinstance(other, Quaternion):
            return self.__class__(array=np.dot(self._left_matrix(), other.q))
        return self * self.__class__(other)

    def __rmul__(self, other):
        return self.__class__(other) * self

    def __abs__(self):
        return self.norm

    def _left_matrix(self):
        """L(p) with p * r == L(p) @ r."""
        w, x, y, z = self.q
        return np.array([[w, -x, -y, -z], [x, w, -z, y], [y, z, w, -x], [z, -y, x, w]])

    def _right_matrix(self):
        """R(p) with r * p == R(p) @ r."""
        w, x, y, z = self.q
        return np.array([[w, -x, -y, -z], [x, w, z, -y], [y, -z, w, x], [z, y, -x, w]])

    def _sum_of_squares(self):
        return np.dot(self.q, self.q)

    @property
    def norm(self):
        return sqrt(self._sum_of_squares())

    magnitude = norm

    def is_unit(self, tolerance=1e-14):
        return abs(1.0 - self._sum_of_squares()) < tolerance

    def _normalise(self):
        # In place, and only when off unit length by 1e-14 or more (written so a NaN norm counts as
        # off, then is left alone because it is not > 0).
        if not self.is_unit():
            n = self.norm
            if n > 0:
                self.q = self.q / n

    @property
    def normalised(self):
        q = Quaternion(self)
        q._normalise()
        return q

    unit = normalised

    @property
    def conjugate(self):
        return self.__class__(scalar=self.scalar, vector=-self.vector)

    @property
    def inverse(self):
        ss = self._sum_of_squares()
        if ss > 0:
            return self.__class__(array=np.hstack((self.q[0], -self.q[1:4])) / ss)
        raise ZeroDivisionError("a zero quaternion (0 + 0i + 0j + 0k) cannot be inverted")

    # --- rotations (each normalises the object itself first, as pyquaternion does) ----------------

    def rotate(self, vector):
        """The rotated 3-vector, as a list, tuple or numpy array like the input; a Quaternion input
        gives the rotated Quaternion."""
        if isinstance(vector, Quaternion):
            return self._rotate_quaternion(vector)
        rotated = self._rotate_quaternion(Quaternion(vector=vector)).vector
        if isinstance(vector, list):
            return list(rotated)
        if isinstance(vector, tuple):
            return tuple(rotated)
        return rotated

    def _rotate_quaternion(self, q):
        self._normalise()
        return self * q * self.conjugate

    @property
    def rotation_matrix(self):
        """3x3 matrix of the (normalised) rotation: the lower-right block of L(q) R(q)^T."""
        self._normalise()
        product = np.dot(self._left_matrix(), self._right_matrix().conj().transpose())
        return product[1:][:, 1:]

    @property
    def transformation_matrix(self):
        top = np.hstack([self.rotation_matrix, np.array([[0.0], [0.0], [0.0]])])
        return np.vstack([top, np.array([0.0, 0.0, 0.0, 1.0])])

    @property
    def yaw_pitch_roll(self):
        """(yaw, pitch, roll) with pyquaternion's signs: the rotation is R_x(roll) R_y(pitch) R_z(yaw),
        i.e. the quaternion qx(roll) * qy(pitch) * qz(yaw)."""
        self._normalise()
        w, x, y, z = self.q
        yaw = np.arctan2(2 * (w * z - x * y), 1 - 2 * (y ** 2 + z ** 2))
        pitch = np.arcsin(2 * (w * y + z * x))
        roll = np.arctan2(2 * (w * x - y * z), 1 - 2 * (x ** 2 + y ** 2))
        return yaw, pitch, roll

    @staticmethod
    def _wrap_angle(theta):
        # Into (-pi, pi]; an odd multiple of pi becomes +pi.
        result = ((theta + pi) % (2 * pi)) - pi
        return pi if result == -pi else result

    def get_axis(self, undefined=np.zeros(3)):
        self._normalise()
        length = np.linalg.norm(self.vector)
        if length < 1e-17:
            return undefined
        return self.vector / length

    @property
    def axis(self):
        return self.get_axis()

    @property
    def angle(self):
        self._normalise()
        return self._wrap_angle(2.0 * atan2(np.linalg.norm(self.vector), self.scalar))

    radians = angle

    @property
    def degrees(self):
        return self.to_degrees(self.angle)
