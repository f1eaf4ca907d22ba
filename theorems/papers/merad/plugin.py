"""What the merad plugin declares, collected as its modules are imported (:class:`theorems.Plugin`)."""

from theorems import Plugin
from theorems.papers import paper

PLUGIN = Plugin(paper("merad", "Merad, Yu, Bacry, Gaiffas -- About contrastive unsupervised representation learning "
                "for classification and its convergence",
                      ("000_446b1395972c3412.txt", "001_024f140e13f62c31.txt"), "theorems.papers.merad", __file__))
PAPER = PLUGIN.paper
