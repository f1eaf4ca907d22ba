"""Subject families shared by every paper, and the generic parts everyone composes families from.

A family is composed, never subclassed::

    from theorems.subjects import Family, Embeddings, Distribution, Scalar, Given, Integer

Parts (:mod:`theorems.subjects.parts`): ``Scalar``, ``Integer``, ``Fixed``, ``Vector``, ``Embeddings``,
``Distribution``, ``JointDistribution``, ``Graph``, ``Given`` (drawn conditionally on the parts before it);
``Mixture`` (a labelled finite mixture) and ``Subset`` (a set of indices, e.g. a task) in
:mod:`theorems.subjects.mixture`; ``Choice``, ``ScalarWithPoints``, ``Measured``, ``WideVector`` in
:mod:`theorems.subjects.reals`; ``BallTriplet``, ``SampleTriplets``, ``SampleOutputs`` (triplet losses) in
:mod:`theorems.subjects.triplet_parts`; ``Augmentations`` (samples with classes, masses and augmented inputs) and
``Encoder`` (an encoder's parameters on them) in :mod:`theorems.subjects.augmentation`; a family of trained
encoders takes ``Snapshots``.
"""

from theorems.subjects.augmentation import AugmentedData, Augmentations, Encoded, Encoder
from theorems.subjects.compose import Family, Snapshots, Subject
from theorems.subjects.mixture import Mixture, MixtureView, Subset
from theorems.subjects.parts import (Distribution, Embeddings, Fixed, Given, Graph, Integer, JointDistribution, Part,
                                     Scalar, Vector)
from theorems.subjects.reals import Choice, Measured, ScalarWithPoints, WideVector
from theorems.subjects.triplet_parts import BallTriplet, SampleOutputs, SampleTriplets

__all__ = ["Augmentations", "AugmentedData", "BallTriplet", "Choice", "Distribution", "Embeddings", "Encoded",
           "Encoder", "Family", "Fixed", "Given", "Graph", "Integer",
           "JointDistribution", "Measured", "Mixture", "MixtureView", "Part", "SampleOutputs", "SampleTriplets", "Scalar",
           "ScalarWithPoints", "Snapshots", "Subject", "Subset", "Vector", "WideVector"]
