"""``train_command``: the body of ``clcheck train`` (typer-compatible; registered by the front end).

Register with ``app.command("train")(train_command)``; it is also a plain function:
``train_command(steps=50, out="runs/x")`` returns the checkpoint path.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape

from numerics.errors import AssumptionError

from training.names import DATA_NAMES, ENCODER_KINDS, LOSS_NAMES


def train_command(
    data: Annotated[str, typer.Option(help=f"data set: {', '.join(DATA_NAMES)}")] = "digits",
    encoder: Annotated[str, typer.Option(help=f"encoder kind: {', '.join(ENCODER_KINDS)}")] = "mlp",
    loss: Annotated[str, typer.Option(help=f"loss: {', '.join(LOSS_NAMES)}")] = "contrastive",
    steps: Annotated[int, typer.Option(help="optimizer steps")] = 500,
    batch: Annotated[int, typer.Option(help="batch size B (ignored for data=triplets: full batch)")] = 128,
    n_negatives: Annotated[int, typer.Option(help="negatives N per anchor in (6)")] = 32,
    lr: Annotated[float, typer.Option(help="learning rate")] = 1e-3,
    seed: Annotated[int, typer.Option(min=0, max=2**32 - 1, help="seed of init, batches and augmentations")] = 0,
    device: Annotated[str, typer.Option(help="auto, cpu, cuda or cuda:N")] = "auto",
    out: Annotated[str, typer.Option(help="checkpoint directory")] = "runs/train",
    resume: Annotated[Optional[str], typer.Option(
        help="checkpoint to resume from (its configuration is kept; --steps, --out, --device apply)")] = None,
    optimizer: Annotated[Optional[str], typer.Option(help="adam or sgd (default: sgd for loss=triplet)")] = None,
    augment: Annotated[bool, typer.Option(help="random 1-pixel shifts + noise (digits only)")] = False,
    normalize: Annotated[bool, typer.Option(help="L2-normalize encoder outputs")] = False,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
) -> Optional[Path]:
    """Train an encoder contrastively and print where the checkpoint went."""
    from training.device import configure_process  # heavy: imports torch
    from training.encoders import EncoderConfig  # heavy: imports torch
    from training.loop import TrainConfig, config_from_dict, load_checkpoint, train  # heavy: imports torch

    configure_process()
    console = Console()
    try:
        if resume is not None:
            # a resumed run keeps the checkpoint's configuration; only the step budget, the
            # output directory and the device come from the command line
            saved = load_checkpoint(resume)["config"]
            config = replace(config_from_dict(saved), steps=steps, out_dir=out, device=device)
        else:
            config = TrainConfig(
                encoder=EncoderConfig(kind=encoder, normalize=normalize), loss=loss, n_negatives=n_negatives,
                batch_size=batch, steps=steps, lr=lr,
                optimizer=optimizer or ("sgd" if loss == "triplet" else "adam"),
                seed=seed, device=device, data=data, augment=augment, out_dir=out)
        result = train(config, resume_from=resume, progress=progress)
    except AssumptionError as exc:  # a bad checkpoint or option: one line naming it, exit 2
        console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True, highlight=False)
        raise typer.Exit(2) from None
    last = result.history[-1] if result.history else {}
    console.print(f"trained {config.encoder.kind} with loss={config.loss} for {config.steps} steps "
                  f"(seed {config.seed}); final loss {last.get('loss', float('nan')):.6g}")
    console.print(f"checkpoint: {result.checkpoint}")
    return result.checkpoint
