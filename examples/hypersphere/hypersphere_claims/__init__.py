"""Claims about alignment and uniformity on the hypersphere, as an outside clcheck plugin.

Source: T. Wang and P. Isola, "Understanding Contrastive Representation Learning through
Alignment and Uniformity on the Hypersphere", ICML 2020 (arXiv:2005.10242), Section 4.1:
L_align(f; alpha) = E_{(x,y)~p_pos} ||f(x) - f(y)||_2^alpha and
L_uniform(f; t) = log E_{x,y iid p_data} exp(-t ||f(x) - f(y)||_2^2), with the PyTorch code
the paper prints for both (``uniform_loss`` averages ``torch.pdist`` over the pairs i < j of a
batch). The instance-cloning property U(D + D) = U(D) is the one X. Fang et al., "Rethinking the
uniformity metric in self-supervised learning" (ICLR 2024), ask of a uniformity metric.
"""

from pathlib import Path

from theorems import Claim, Eq, Kind, Le, Paper, Plugin, Sharp, Source, forall, parts, quantity
from theorems.subjects import Distribution, Embeddings, Family, Scalar

from hypersphere_claims import certificates

PLUGIN = Plugin(Paper("hyper", "Wang & Isola (2020), alignment and uniformity on the hypersphere",
                             files=("arXiv:2005.10242",), pages=Path(__file__).parent / "pages"))


def _sq_dist(a, b, xp):  # ||a_i - b_j||^2 for all i, j: (n, m)
    return xp.sum(a * a, axis=1)[:, None] + xp.sum(b * b, axis=1)[None, :] - 2 * (a @ xp.transpose(b))


def _pdist_uniform(x, t, xp):  # the paper's uniform_loss: log mean over pairs i < j of exp(-t ||x_i - x_j||^2)
    n = int(x.shape[0])
    upper = [(i, j) for i in range(n) for j in range(i + 1, n)]
    terms = xp.exp(-t * _sq_dist(x, x, xp))
    return xp.log(xp.sum(xp.stack([terms[i, j] for i, j in upper])) / len(upper))


@quantity(range=(0, 4))
def L_align(s, xp):
    """L_align(f; 2) = E ||f(x) - f(y)||^2 over the positive pairs (x_i, y_i) with masses p_i."""
    d = s.x - s.y
    return xp.sum(s.p * xp.sum(d * d, axis=1))


@quantity(range=(-1, 1))
def mean_cos(s, xp):
    """E f(x)^T f(y) over the positive pairs."""
    return xp.sum(s.p * xp.sum(s.x * s.y, axis=1))


@quantity(range=(None, 0))
def L_uniform(s, xp):
    """L_uniform(f; t) = log E_{x,y iid} exp(-t ||f(x) - f(y)||^2), p_data = the x_i with masses p_i."""
    return xp.log(xp.sum((s.p[:, None] * s.p[None, :]) * xp.exp(-s.t * _sq_dist(s.x, s.x, xp))))


@quantity(range=(None, 0))
def L_uniform_cloned(s, xp):
    """L_uniform on D + D: every point twice, each copy with half its mass."""
    x2, p2 = xp.stack([s.x, s.x]).reshape(-1, s.d), xp.stack([s.p, s.p]).reshape(-1) / 2
    return xp.log(xp.sum((p2[:, None] * p2[None, :]) * xp.exp(-s.t * _sq_dist(x2, x2, xp))))


@quantity(range=(None, 0))
def L_uniform_pdist(s, xp):
    """The paper's code, uniform_loss(x, t), on the batch x_1..x_n."""
    return _pdist_uniform(s.x, s.t, xp)


@quantity(range=(None, 0))
def L_uniform_pdist_cloned(s, xp):
    """uniform_loss on the batch x_1..x_n, x_1..x_n (every instance cloned once)."""
    return _pdist_uniform(xp.stack([s.x, s.x]).reshape(-1, s.d), s.t, xp)


pairs = Family(
    "unit embeddings of positive pairs",
    dims={"n": (2, 5), "d": (1, 4)},
    parts={"x": Embeddings("n", "d", norm="unit"), "y": Embeddings("n", "d", norm="unit"),
           "p": Distribution("n"), "t": Scalar(0.1, 5.0)},
    quantities=(L_align, mean_cos, L_uniform, L_uniform_cloned, L_uniform_pdist, L_uniform_pdist_cloned),
)
t = pairs.symbol("t")
SOURCE = "arXiv:2005.10242"
# the objects each sentence binds, in its order: an encoder on the unit sphere (its values on the pairs and
# their masses), and the temperature t where the sentence has one
ENCODER = forall("f", "encoders onto the unit sphere S^(d-1): their values x_i, y_i on n positive pairs of mass p_i")
TEMPERATURE = forall("t", "t > 0")

PLUGIN.claim(Claim(
    "hyper.align_cosine", Kind.IDENTITY, Source(SOURCE, "Section 4.1, L_align with alpha = 2 on the sphere"),
    parts(Eq(L_align, 2 - 2 * mean_cos)), subjects=(pairs,), prefix=(ENCODER,),
    encoding="||u - v||^2 = 2 - 2 u^T v for unit u, v, averaged over the positive pairs.",
))

PLUGIN.claim(Claim(
    "hyper.uniform_range", Kind.INEQUALITY, Source(SOURCE, "Section 4.1, L_uniform on the unit sphere"),
    parts(Le(-4 * t, L_uniform), Le(L_uniform, 0), labels=["-4t <= L_uniform", "L_uniform <= 0"]),
    subjects=(pairs,), prefix=(TEMPERATURE, ENCODER),
    sharp=(Sharp("-4t <= L_uniform", "4", "2 (Jensen: E ||f(x) - f(y)||^2 <= 2; approached by an antipodal pair as "
                 "t -> 0)", certified=True, sides=(-2 * t, L_uniform), bound=(-2 * t, L_uniform),
                 certificates=(certificates.uniform_lower_bound, certificates.antipodal_limit),
                 bound_by=(certificates.uniform_lower_bound,)),),
    encoding="0 <= ||f(x) - f(y)||^2 <= 4 on the unit sphere, so exp(-4t) <= E exp(-t ||.||^2) <= 1.",
))

PLUGIN.claim(Claim(
    "hyper.uniform_cloning.population", Kind.IDENTITY,
    Source("arXiv:2005.10242; Fang et al. (ICLR 2024), Section 3", "instance cloning, L_uniform as defined"),
    parts(Eq(L_uniform_cloned, L_uniform)), subjects=(pairs,), prefix=(ENCODER, TEMPERATURE),
    encoding="D + D with half the mass on each copy is the same distribution p_data, so L_uniform is unchanged.",
))

PLUGIN.claim(Claim(
    "hyper.uniform_cloning.pdist", Kind.IDENTITY,
    Source("arXiv:2005.10242; Fang et al. (ICLR 2024), Section 3", "instance cloning, the printed uniform_loss code"),
    parts(Eq(L_uniform_pdist_cloned, L_uniform_pdist)), subjects=(pairs,), prefix=(ENCODER, TEMPERATURE),
    known_refutation="hyper.uniform_cloning.pdist.json",
    notes="The code averages over pairs i < j only: cloning adds pairs at distance 0 (e^0 = 1) and changes the "
          "value, as Fang et al. report; the population definition (hyper.uniform_cloning.population) does not.",
))


def register(registry):
    """What the ``clcheck.claims`` entry point calls: the paper and its claims into ``registry`` (importing this
    module registers nothing)."""
    PLUGIN.register(registry)
