"""Subject families shared by every paper, and the generic parts everyone composes families from.

A family is composed, never subclassed::

    from theorems.subjects import Family, Embeddings, Distribution, Scalar, Given, Integer

Parts (:mod:`theorems.subjects.parts`): ``Scalar``, ``Integer``, ``Fixed``, ``Vector``, ``Embeddings``,
``Distribution``, ``JointDistribution``, ``Graph``, ``Given`` (drawn conditionally on the parts before it);
a family of trained encoders takes ``Snapshots``.
"""

from theorems.subjects.compose import Family, Snapshots, Subject
from theorems.subjects.parts import (Distribution, Embeddings, Fixed, Given, Graph, Integer, JointDistribution, Part,
                                     Scalar, Vector)

__all__ = ["Distribution", "Embeddings", "Family", "Fixed", "Given", "Graph", "Integer", "JointDistribution", "Part",
           "Scalar", "Snapshots", "Subject", "Vector"]
