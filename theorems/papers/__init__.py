"""The four papers clcheck ships with, each a plugin registered through the ``clcheck.claims``
entry points exactly like an outside package: ``merad`` (Merad, Yu, Bacry, Gaiffas), ``huang``
(Huang, Yi, Zhao, Jiang), ``ren`` (Ren & Li), ``wen`` (Wen & Li)."""
