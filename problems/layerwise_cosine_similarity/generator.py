"""Deterministic test cases for layerwise_cosine_similarity.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Most cases are residual streams: each layer adds an update to the
previous state, as a transformer block does. No case has L == D, so that normalising
over the wrong axis shows as a wrong shape. The last four cases are probe inputs.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, states, probe: bool = False) -> dict:
    states = np.ascontiguousarray(states, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": [states.shape[0] - 1, *states.shape[1:3]],
            "args": {"hidden_states": states}}
    return case | {"probe": True} if probe else case


def _stream(rng: np.random.Generator, layers: int, batch: int, length: int, width: int,
            update: float = 0.4, scale: float = 1.0) -> np.ndarray:
    # The residual stream: x_{l+1} = x_l + f_l(x_l), with updates of a fixed relative size.
    states = [scale * rng.standard_normal((batch, length, width))]
    for _ in range(layers):
        size = np.linalg.norm(states[-1], axis=-1, keepdims=True) / np.sqrt(width)
        states.append(states[-1] + update * size * rng.standard_normal((batch, length, width)))
    return np.stack(states)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_two_layers", False, [[[[1.0, 0.0], [0.0, 2.0]]],
                                              [[[1.0, 1.0], [0.0, 2.0]]],
                                              [[[0.0, 1.0], [0.0, -3.0]]]])
    yield _case("example_padding_token", False, [[[[1.0, 2.0, 2.0], [0.0, 0.0, 0.0]]],
                                                 [[[2.0, 1.0, 2.0], [0.0, 0.0, 0.0]]]])

    # Hidden cases (the judge runs them smallest first).
    yield _case("one_layer", True, _stream(rng, 1, 1, 3, 5))
    # D = 1: every cosine is +1 or -1 (or 0 for a zero).
    yield _case("width_one", True, rng.standard_normal((4, 2, 3, 1)))
    # A layer that changes nothing, one that only scales the stream, one that flips it.
    base = rng.standard_normal((1, 2, 4, 6))
    yield _case("identity_scale_flip", True, np.concatenate([base, base, 3.0 * base, -3.0 * base]))
    # An update orthogonal to the state, and equal in size: cosine 1 / sqrt(2) exactly in theory.
    x = rng.standard_normal((2, 5, 8))
    update = rng.standard_normal((2, 5, 8))
    update -= np.sum(update * x, axis=-1, keepdims=True) / np.sum(x * x, axis=-1, keepdims=True) * x
    update *= np.linalg.norm(x, axis=-1, keepdims=True) / np.linalg.norm(update, axis=-1, keepdims=True)
    yield _case("orthogonal_update", True, np.stack([x, x + update, update]))
    # Padding tokens that stay all zeros through every layer, and a token that is zero in one layer only.
    states = _stream(rng, 3, 2, 6, 4)
    states[:, 1, 4:] = 0.0
    states[2, 0, 2] = 0.0
    yield _case("zero_vectors", True, states)
    yield _case("residual_stream", True, _stream(rng, 6, 3, 7, 16))
    # Large updates: the later layers rewrite the stream almost completely.
    yield _case("large_updates", True, _stream(rng, 4, 2, 5, 24, update=3.0))
    # A stream of size 1e4 with a few "massive activation" features of size 1e6.
    states = _stream(rng, 5, 2, 9, 32, scale=1e4)
    states[:, :, :, :2] *= 100.0
    yield _case("massive_activations", True, states)
    # GPT-2 small's residual stream (12 layers, width 768) and ViT-S/16's (12 layers, 197 tokens, width 384).
    yield _case("gpt2_small_stream", True, _stream(rng, 12, 1, 64, 768, update=0.3))
    yield _case("vit_s16_stream", True, _stream(rng, 12, 1, 197, 384, update=0.5))
    layers, batch, length = (int(n) for n in rng.integers(1, 7, size=3))
    width = length + int(rng.integers(1, 20))
    yield _case("random_any", True, _stream(rng, layers, batch, length, width))

    # Probe inputs (never graded). Rescaling a layer's states by a positive factor must not
    # change any cosine; changing only the last layer must not change the earlier comparisons.
    states = _stream(rng, 3, 2, 4, 6)
    factors = np.array([0.5, 3.0, 10.0, 0.2])[:, None, None, None]
    changed = states.copy()
    changed[-1] = rng.standard_normal((2, 4, 6))
    yield _case("probe_base", True, states, probe=True)
    yield _case("probe_rescaled", True, factors * states, probe=True)
    yield _case("probe_stream", True, states, probe=True)
    yield _case("probe_last_layer_changed", True, changed, probe=True)
