"""Subject families shared by every paper, and the generic parts everyone composes families from.

A family is composed, never subclassed::

    from theorems.subjects import Family, Embeddings, Distribution, Scalar, Given, Integer

Parts (:mod:`theorems.subjects.parts`): ``Scalar``, ``Integer``, ``Fixed``, ``Vector``, ``Embeddings``,
``Distribution``, ``JointDistribution``, ``Graph``, ``Given`` (drawn conditionally on the parts before it);
``Mixture`` (a labelled finite mixture) and ``Subset`` (a set of indices, e.g. a task) in
:mod:`theorems.subjects.mixture`; ``Choice``, ``ScalarWithPoints``, ``Measured``, ``WideVector`` in
:mod:`theorems.subjects.reals`; ``Density`` (a piecewise-linear density on an interval) and ``PiecewiseLinearMap``
(a Lipschitz piecewise-linear function), whose quantities are exact (:mod:`numerics.piecewise`), in
:mod:`theorems.subjects.continuous`; a family of trained encoders takes ``Snapshots``. (Merad et al.'s triplet parts
``BallTriplet``, ``SampleTriplets``, ``SampleOutputs`` live with that paper: theorems/papers/merad/triplet_parts.py;
Huang et al.'s augmented-data parts live with that paper: theorems/papers/huang/augmentation.py.)
"""

from theorems.subjects.compose import Family, Snapshots, Subject
from theorems.subjects.continuous import Density, PiecewiseLinearMap
from theorems.subjects.mixture import Mixture, MixtureView, Subset
from theorems.subjects.parts import (Distribution, Embeddings, Fixed, Given, Graph, Integer, JointDistribution, Part,
                                     Scalar, Vector)
from theorems.subjects.reals import Choice, Measured, ScalarWithPoints, WideVector

__all__ = ["Choice", "Density", "Distribution", "Embeddings", "Family", "Fixed", "Given", "Graph", "Integer",
           "JointDistribution", "Measured", "Mixture", "MixtureView", "Part", "PiecewiseLinearMap", "Scalar",
           "ScalarWithPoints", "Snapshots", "Subject", "Subset", "Vector", "WideVector"]
