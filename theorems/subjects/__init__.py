"""Subject families shared by every paper, and the generic parts outsiders compose families from.

Each family module declares the quantity symbols it computes next to the code that computes
them (``theorems.subjects.mixtures.L_un``, ...). A new family needs no subclass::

    from theorems.subjects import Family, Embeddings, Distribution, Scalar
"""

from theorems.subjects.compose import Distribution, Embeddings, Family, Graph, Integer, Part, Scalar, Vector

__all__ = ["Distribution", "Embeddings", "Family", "Graph", "Integer", "Part", "Scalar", "Vector"]
