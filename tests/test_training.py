"""training/: devices (no GPU needed), encoders, D_sim/D_neg sampling, fixed triplets, the loop and its checkpoints."""

from __future__ import annotations

import math
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
import typer
from typer.testing import CliRunner

from numerics.errors import AssumptionError
from training import (ConvEncoder, DeepReLUEncoder, EncoderConfig, LatentClassSampler, MLPEncoder, TrainConfig,
                      augment, autocast_context, build_encoder, contrastive_loss_n, fixed_triplets,
                      load_digits_data, load_encoder, seed_everything, select_device, synthetic_latent_classes,
                      train, views)
from training.cli import train_command


@pytest.fixture(autouse=True, scope="module")
def one_thread() -> Any:
    """These models are tiny: one intra-op thread is fastest, and it avoids OpenMP barrier stalls
    (seconds per step) when other processes load the 2 cores. The thread count and the global
    deterministic-algorithms flag (set by seed_everything) are restored for later test files."""
    threads = torch.get_num_threads()
    deterministic = (torch.are_deterministic_algorithms_enabled(),
                     torch.is_deterministic_algorithms_warn_only_enabled())
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(deterministic[0], warn_only=deterministic[1])


def small(out: Path | None = None, **overrides: Any) -> TrainConfig:
    """A run that takes well under a second on CPU."""
    base = dict(encoder=EncoderConfig(kind="mlp", hidden=(32,), d_out=16), n_negatives=4, batch_size=32,
                steps=20, log_every=5, device="cpu", out_dir=None if out is None else str(out))
    return TrainConfig(**{**base, **overrides})


def params(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}


def assert_same_params(a: torch.nn.Module, b: torch.nn.Module) -> None:
    pa, pb = params(a), params(b)
    assert pa.keys() == pb.keys()
    for k in pa:
        assert torch.equal(pa[k], pb[k]), k


def losses_of(history: list[dict[str, Any]]) -> list[tuple[int, float]]:
    return [(h["step"], h["loss"]) for h in history]


# ---------------------------------------------------------------- device

def test_select_device_without_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert select_device() == torch.device("cpu")
    assert select_device("auto") == torch.device("cpu")
    assert select_device("CPU") == torch.device("cpu")
    for name in ("cuda", "cuda:0"):
        with pytest.raises(AssumptionError, match="is_available"):
            select_device(name)
    for name in ("tpu", "cuda:x", "gpu", ""):
        with pytest.raises(AssumptionError, match="is not a device"):
            select_device(name)


def test_select_device_with_fake_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    assert select_device("auto") == torch.device("cuda")
    assert select_device("cuda") == torch.device("cuda")
    assert select_device("cuda:1") == torch.device("cuda", 1)
    assert select_device("cpu") == torch.device("cpu")
    with pytest.raises(AssumptionError, match="only 2 CUDA"):
        select_device("cuda:2")


def test_autocast_is_a_no_op_on_cpu() -> None:
    a = torch.randn(4, 4)
    with autocast_context(torch.device("cpu"), enabled=True):
        assert (a @ a).dtype == torch.float32


def test_seed_everything_repeats_and_rejects_bad_seeds() -> None:
    seed_everything(3)
    first = (torch.randn(5), np.random.rand(3))
    seed_everything(3)
    assert torch.equal(first[0], torch.randn(5)) and np.array_equal(first[1], np.random.rand(3))
    assert torch.are_deterministic_algorithms_enabled()
    with pytest.raises(AssumptionError, match="seed"):
        seed_everything(-1)


# ---------------------------------------------------------------- encoders

def test_deep_relu_encoder_is_section_4_without_biases() -> None:
    torch.manual_seed(0)
    m, L = 512, 3
    enc = DeepReLUEncoder(d_in=64, width=m, depth=L, d_out=16)
    names = {n for n, _ in enc.named_parameters()}
    assert names == {"A", "B", *(f"W.{l}" for l in range(L))}
    assert not any(isinstance(mod, torch.nn.Linear) for mod in enc.modules())
    assert sum(p.numel() for p in enc.parameters()) == m * 64 + L * m * m + 16 * m
    x = torch.rand(5, 64)
    h = torch.relu(enc.A @ x.T)  # (m, 5)
    for w in enc.W:
        h = torch.relu(w @ h)
    torch.testing.assert_close(enc(x), (enc.B @ h).T)
    assert enc(x.reshape(5, 8, 8)).shape == (5, 16)
    # Allen-Zhu et al. initialisation: A, W_l ~ N(0, 2/m), B ~ N(0, 1/d_out)
    for w in [enc.A, *enc.W]:
        assert w.std().item() == pytest.approx(math.sqrt(2 / m), rel=0.05)
    assert enc.B.std().item() == pytest.approx(math.sqrt(1 / 16), rel=0.05)


@pytest.mark.parametrize("shape", [(7, 64), (7, 8, 8), (7, 1, 8, 8)])
def test_encoder_shapes(shape: tuple[int, ...]) -> None:
    x = torch.rand(*shape)
    assert MLPEncoder(64, (32, 16), 10)(x).shape == (7, 10)
    assert ConvEncoder(12)(x).shape == (7, 12)
    for kind in ("deep_relu", "mlp", "linear", "conv"):
        enc = build_encoder(EncoderConfig(kind=kind, d_out=6, width=32, normalize=True))
        y = enc(x)
        assert y.shape == (7, 6)
        torch.testing.assert_close(y.norm(dim=1), torch.ones(7))


def test_encoder_config_errors() -> None:
    with pytest.raises(AssumptionError, match="kind='rnn'"):
        EncoderConfig(kind="rnn")
    with pytest.raises(AssumptionError, match="d_in"):
        EncoderConfig(kind="conv", d_in=32)
    with pytest.raises(AssumptionError, match="depth=0"):
        DeepReLUEncoder(4, 8, 0, 2)


# ---------------------------------------------------------------- data

def test_load_digits_data() -> None:
    X, y = load_digits_data()
    assert X.shape == (1797, 64) and X.dtype == np.float32 and y.dtype == np.int64
    assert X.min() == 0.0 and X.max() == 1.0 and set(np.unique(y)) == set(range(10))


def test_sampler_follows_rho_and_positives_share_the_class() -> None:
    from scipy import stats  # here: importing scipy.stats takes about a second

    X, y = load_digits_data()
    rho = np.arange(1, 11) / 55.0
    sampler = LatentClassSampler(X, y, rho=rho, seed=0)
    a, p, n = sampler.sample(20000, 3)
    assert a.shape == p.shape == (20000,) and n.shape == (20000, 3)
    assert np.array_equal(y[a], y[p])  # D_sim (1): a shared latent class
    for labels in (y[a], y[n].ravel()):  # the anchor's class ~ rho and each negative's class ~ rho (2)
        counts = np.bincount(labels, minlength=10)
        assert stats.chisquare(counts, rho * counts.sum()).pvalue > 1e-3
    assert not np.array_equal(y[a], y[n[:, 0]])  # negatives are drawn independently of the anchor
    default = LatentClassSampler(X, y)
    np.testing.assert_allclose(default.rho, np.bincount(y) / len(y))


@pytest.mark.parametrize("rho, match", [
    ([0.0] + [1 / 9] * 9, r"rho\[0\] = 0.0"),
    ([0.1] * 9, "one probability per class"),
    ([-0.1, 0.3] + [0.1] * 8, r"rho\[0\]"),
    ([0.2] * 10, "sums to"),
])
def test_sampler_rejects_bad_rho(rho: list[float], match: str) -> None:
    X, y = load_digits_data()
    with pytest.raises(AssumptionError, match=match):
        LatentClassSampler(X, y, rho=rho)


def test_augment_shifts_by_at_most_one_pixel_and_clips() -> None:
    X, _ = load_digits_data()
    x = X[:50]
    rng = np.random.default_rng(0)
    clean = augment(x, rng, noise_std=0.0).reshape(50, 8, 8)
    padded = np.pad(x.reshape(50, 8, 8), ((0, 0), (1, 1), (1, 1)))
    shifts = [padded[:, 1 - dy:9 - dy, 1 - dx:9 - dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    assert all(any(np.array_equal(clean[i], s[i]) for s in shifts) for i in range(50))
    noisy = augment(x.reshape(50, 8, 8), rng)
    assert noisy.shape == (50, 8, 8) and noisy.min() >= 0 and noisy.max() <= 1
    v1, v2 = views(x, rng)
    assert v1.shape == v2.shape == (50, 64) and not np.array_equal(v1, v2)


def test_synthetic_latent_classes() -> None:
    X, y = synthetic_latent_classes(n_classes=4, dim=5, per_class=50, rho=[0.1, 0.2, 0.3, 0.4], seed=1)
    assert X.shape == (200, 5) and X.dtype == np.float32 and y.dtype == np.int64
    assert np.bincount(y).tolist() == [20, 40, 60, 80]
    X2, _ = synthetic_latent_classes(n_classes=4, dim=5, per_class=50, rho=[0.1, 0.2, 0.3, 0.4], seed=1)
    assert np.array_equal(X, X2)


def test_fixed_triplets_are_distinct_normalized_and_separated() -> None:
    X, y = load_digits_data()
    ts = fixed_triplets(X, y, n=100, seed=0)
    assert ts.xa.shape == ts.xp.shape == ts.xn.shape == (100, 64) and ts.xa.dtype == np.float64
    assert len(np.unique(ts.index)) == 300  # every sample used at most once
    assert np.array_equal(y[ts.index[:, 0]], y[ts.index[:, 1]])
    assert np.all(y[ts.index[:, 0]] != y[ts.index[:, 2]])
    allx = np.concatenate([ts.xa, ts.xp, ts.xn])
    np.testing.assert_allclose(np.linalg.norm(allx, axis=1), 1.0, atol=1e-12)  # Assumption 1
    gaps = np.linalg.norm(allx[:, None] - allx[None], axis=-1)[np.triu_indices(300, 1)]
    assert ts.delta > 0 and ts.delta == pytest.approx(gaps.min(), rel=1e-12)


def test_fixed_triplets_errors() -> None:
    X = np.array([[1.0, 0.0], [2.0, 0.0], [0.0, 1.0]])  # rows 0 and 1 coincide once normalized
    with pytest.raises(AssumptionError, match="delta = 0"):
        fixed_triplets(X, np.array([0, 0, 1]), n=1)
    with pytest.raises(AssumptionError, match="3n = 9"):
        fixed_triplets(X, np.array([0, 0, 1]), n=3)
    with pytest.raises(AssumptionError, match="cannot be normalized"):
        fixed_triplets(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), np.array([0, 0, 1]), n=1)


# ---------------------------------------------------------------- loop

def test_bad_configs_are_rejected() -> None:
    with pytest.raises(AssumptionError, match="loss='hinge'"):
        TrainConfig(loss="hinge")
    with pytest.raises(AssumptionError, match="data='triplets'"):
        TrainConfig(loss="triplet", data="digits")
    with pytest.raises(AssumptionError, match="optimizer='rmsprop'"):
        TrainConfig(optimizer="rmsprop")
    with pytest.raises(AssumptionError, match="n_negatives=0"):
        TrainConfig(n_negatives=0)
    with pytest.raises(AssumptionError, match="is not a device"):
        train(small(device="tpu"), progress=False)


def test_same_seed_same_parameters() -> None:
    a, b = train(small(), progress=False), train(small(), progress=False)
    assert_same_params(a.encoder, b.encoder)
    assert losses_of(a.history) == losses_of(b.history)
    c = train(small(seed=1), progress=False)
    assert not torch.equal(params(a.encoder)["net.0.weight"], params(c.encoder)["net.0.weight"])


def test_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    cfg = small(tmp_path / "straight", augment=True, checkpoint_every=5)  # two numpy streams + torch
    straight = train(cfg, progress=False)
    assert {p.name for p in (tmp_path / "straight").iterdir()} == {"ckpt_5.pt", "ckpt_10.pt", "ckpt_15.pt",
                                                                   "ckpt_20.pt", "last.pt"}
    first = train(replace(cfg, steps=10, out_dir=str(tmp_path / "first")), progress=False)
    resumed = train(replace(cfg, out_dir=str(tmp_path / "second")), resume_from=first.checkpoint, progress=False)
    assert_same_params(straight.encoder, resumed.encoder)
    assert losses_of(straight.history) == losses_of(resumed.history)
    mid = train(replace(cfg, out_dir=str(tmp_path / "mid")), resume_from=tmp_path / "straight" / "ckpt_10.pt",
                progress=False)
    assert_same_params(straight.encoder, mid.encoder)


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    cfg = small(tmp_path, encoder=EncoderConfig(kind="deep_relu", width=32, depth=2, d_out=8), steps=6)
    result = train(cfg, progress=False)
    assert result.checkpoint == tmp_path / "last.pt" and (tmp_path / "ckpt_6.pt").is_file()
    state = torch.load(result.checkpoint, weights_only=True)
    assert state["config"] == asdict(cfg)
    assert (state["step"], state["seed"], state["n_negatives"], state["data"], state["device"]) == \
        (6, 0, 4, "digits", "cpu")
    assert math.isfinite(state["loss"]) and {"state_dict", "optimizer", "rng", "history"} <= state.keys()
    encoder, config = load_encoder(result.checkpoint)
    assert config == cfg and isinstance(encoder, DeepReLUEncoder)
    x = torch.rand(3, 64)
    torch.testing.assert_close(encoder(x), result.encoder(x), rtol=0, atol=0)
    with pytest.raises(AssumptionError, match="n_negatives"):
        train(replace(cfg, n_negatives=5), resume_from=result.checkpoint, progress=False)
    with pytest.raises(AssumptionError, match="does not exist"):
        load_encoder(tmp_path / "missing.pt")


def test_on_log_schedule_and_extra_metrics() -> None:
    seen: list[int] = []

    def on_log(step: int, encoder: torch.nn.Module, entry: dict[str, Any]) -> None:
        seen.append(step)
        entry["norm"] = sum(p.norm().item() for p in encoder.parameters())

    result = train(small(steps=12), on_log=on_log, progress=False)
    assert seen == [0, 5, 10, 12] == [h["step"] for h in result.history]
    assert all("norm" in h for h in result.history) and result.history[-1]["final"]


def test_contrastive_training_on_digits_lowers_the_loss() -> None:
    X, y = load_digits_data()
    a, p, n = LatentClassSampler(X, y, seed=123).sample(256, 8)  # a fixed held-out batch of (6)
    xa, xp, xn = (torch.from_numpy(X[i]) for i in (a, p, n))
    held_out: dict[int, float] = {}

    def on_log(step: int, encoder: torch.nn.Module, entry: dict[str, Any]) -> None:
        with torch.no_grad():
            zn = encoder(xn.reshape(-1, 64)).reshape(256, 8, -1)  # (B, N, d)
            held_out[step] = contrastive_loss_n(encoder(xa), encoder(xp), zn).item()

    cfg = small(steps=50, batch_size=64, n_negatives=8, log_every=10,
                encoder=EncoderConfig(kind="mlp", hidden=(64,), d_out=16))
    result = train(cfg, on_log=on_log, progress=False)
    assert held_out[50] < 0.85 * held_out[0]
    assert result.history[-1]["loss"] < result.history[0]["loss"]


def test_full_batch_gradient_descent_on_fixed_triplets() -> None:
    cfg = small(data="triplets", loss="triplet", optimizer="sgd", lr=0.02, n_triplets=20, steps=30, log_every=10,
                encoder=EncoderConfig(kind="deep_relu", width=128, depth=2, d_out=16))
    result = train(cfg, progress=False)
    values = [h["loss"] for h in result.history]
    assert values == sorted(values, reverse=True) and values[-1] < values[0]


def test_divergence_is_reported() -> None:
    cfg = small(data="triplets", loss="triplet", optimizer="sgd", lr=50.0, n_triplets=50, steps=20, log_every=1,
                encoder=EncoderConfig(kind="deep_relu", width=64, depth=2, d_out=8))
    with pytest.raises(AssumptionError, match="diverged"):
        train(cfg, progress=False)


@pytest.mark.parametrize("overrides", [
    dict(loss="infonce"),
    dict(loss="barlow"),
    dict(loss="positive"),
    dict(loss="infonce", augment=True, positives="views"),
    dict(loss="contrastive", data="synthetic"),
    dict(loss="barlow", data="triplets"),
    dict(loss="contrastive", encoder=EncoderConfig(kind="conv", d_out=8)),
])
def test_every_loss_and_data_source_runs(overrides: dict[str, Any]) -> None:
    result = train(small(steps=3, log_every=1, **overrides), progress=False)
    assert len(result.history) == 4 and all(math.isfinite(h["loss"]) for h in result.history)


def test_cli_train_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ckpt = train_command(steps=2, batch=16, n_negatives=2, device="cpu", out=str(tmp_path / "a"), progress=False)
    assert ckpt == tmp_path / "a" / "last.pt" and ckpt.is_file()
    assert "checkpoint:" in capsys.readouterr().out
    app = typer.Typer()
    app.command("train")(train_command)
    app.command("other")(lambda: None)
    runner = CliRunner()
    ok = runner.invoke(app, ["train", "--steps", "2", "--batch", "8", "--n-negatives", "2", "--device", "cpu",
                             "--out", str(tmp_path / "b"), "--no-progress"])
    assert ok.exit_code == 0, ok.output
    assert (tmp_path / "b" / "last.pt").is_file()
    bad = runner.invoke(app, ["train", "--loss", "hinge", "--out", str(tmp_path / "c"), "--no-progress"])
    assert bad.exit_code == 2 and "hinge" in bad.output


def test_encoding_distinct_rows_gives_the_same_loss_and_gradient() -> None:
    """encode_distinct (each repeated image encoded once) = encoding every row: same outputs and the
    same parameter gradient, to float32 rounding; with few repeats it encodes every row."""
    from training.encoders import EncoderConfig, build_encoder
    from training.loop import encode_distinct

    torch.manual_seed(0)
    enc = build_encoder(EncoderConfig(kind="conv", d_in=64, d_out=8))
    images = torch.rand(20, 64)
    rows = images[torch.randint(0, 20, (200,))]  # many repeats
    grads = []
    for encode in (lambda x: enc(x), lambda x: encode_distinct(enc, x)):
        enc.zero_grad()
        out = encode(rows)
        (out ** 2).sum().backward()
        grads.append((out.detach(), [p.grad.clone() for p in enc.parameters()]))
    (a, ga), (b, gb) = grads
    assert torch.allclose(a, b, rtol=1e-5, atol=1e-6)
    assert all(torch.allclose(x, y, rtol=1e-4, atol=1e-5) for x, y in zip(ga, gb))
    distinct = torch.rand(30, 64)
    assert torch.equal(encode_distinct(enc, distinct), enc(distinct))


def test_distinct_rows_groups_exactly_even_when_keys_collide(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first occurrence of each distinct row, in order, and every row's group; a key shared by
    different rows (here: every key, with all-zero weights) falls back to the exact grouping."""
    from training import loop

    torch.manual_seed(1)
    images = torch.rand(40, 64)
    rows = images[torch.randint(0, 40, (300,))]
    first, inverse = loop.distinct_rows(rows)
    assert torch.equal(rows[first][inverse], rows) and bool((first[1:] > first[:-1]).all())
    assert len(first) == len({tuple(r.tolist()) for r in rows})
    monkeypatch.setattr(loop, "_key_weights", lambda width, device: torch.zeros(width, dtype=torch.int64))
    collided = loop.distinct_rows(rows)
    assert collided is not None and torch.equal(collided[0], first) and torch.equal(collided[1], inverse)
    assert loop.distinct_rows(torch.rand(30, 64)) is None


def test_a_run_is_bit_identical_without_the_nan_fill_of_new_tensors() -> None:
    """deterministic_kernels switches off torch's NaN fill of uninitialized memory: a short run gives
    the same parameters, bit for bit, with the fill on."""
    from training.device import deterministic_kernels
    from training.encoders import EncoderConfig
    from training.loop import TrainConfig, train

    deterministic_kernels()
    assert torch.utils.deterministic.fill_uninitialized_memory is False
    config = TrainConfig(encoder=EncoderConfig(kind="conv", d_in=64, d_out=8), loss="contrastive", n_negatives=7,
                         batch_size=16, steps=15, lr=1e-3, seed=3, device="cpu", data="digits")
    params = []
    for fill in (True, False):
        torch.utils.deterministic.fill_uninitialized_memory = fill
        params.append([p.detach().clone() for p in train(config, progress=False).encoder.parameters()])
    assert all(torch.equal(a, b) for a, b in zip(*params))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64])
def test_distinct_rows_takes_other_float_widths(dtype: torch.dtype) -> None:
    from training.loop import distinct_rows

    rows = torch.rand(10, 8).to(dtype)[torch.tensor([0, 1, 0, 2, 1, 0, 3, 3, 2, 0, 1, 1])]
    first, inverse = distinct_rows(rows)
    assert first.tolist() == [0, 1, 3, 6] and torch.equal(rows[first][inverse], rows)
