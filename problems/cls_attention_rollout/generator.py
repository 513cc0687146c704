"""Deterministic test cases for cls_attention_rollout.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Every attention row is a softmax (non-negative, summing to 1),
as a ViT's attention weights are; some have exact zeros (masked keys) or are one-hot.
The last three cases are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, attentions, probe: bool = False) -> dict:
    attentions = np.ascontiguousarray(attentions, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": [attentions.shape[1], attentions.shape[-1]],
            "args": {"attentions": attentions}}
    return case | {"probe": True} if probe else case


def _softmax(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _random(rng: np.random.Generator, layers: int, batch: int, heads: int, tokens: int,
            sharpness: float = 1.5) -> np.ndarray:
    return _softmax(sharpness * rng.standard_normal((layers, batch, heads, tokens, tokens)))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    head_0 = [[0.5, 0.5], [0.0, 1.0]]
    head_1 = [[0.9, 0.1], [0.2, 0.8]]
    yield _case("example_one_layer", False, [[[head_0, head_1]]])
    first = [[0.0, 1.0], [0.0, 1.0]]     # layer 1: everyone reads token 1
    second = [[0.0, 1.0], [1.0, 0.0]]    # layer 2: the class token reads token 1, token 1 reads the class token
    yield _case("example_two_layers", False, [[[first]], [[second]]])

    # Hidden cases (the judge runs them smallest first).
    yield _case("one_token", True, np.ones((2, 1, 2, 1, 1)))
    yield _case("one_layer_one_head", True, _random(rng, 1, 1, 1, 3))
    # Pure self-attention in every layer: the class token only ever reads itself.
    yield _case("self_attention_only", True, np.broadcast_to(np.eye(4), (3, 2, 2, 4, 4)))
    # Every token reads only the class token: after the first layer nothing flows from the patches.
    reads_class = np.zeros((3, 1, 2, 5, 5))
    reads_class[..., 0] = 1.0
    yield _case("everyone_reads_class", True, reads_class)
    yield _case("uniform_attention", True, np.full((2, 2, 3, 6, 6), 1 / 6))
    # Two heads that disagree completely: head 0 one-hot on token 1, head 1 one-hot on token 2.
    disagree = np.zeros((2, 1, 2, 4, 4))
    disagree[:, :, 0, :, 1] = 1.0
    disagree[:, :, 1, :, 2] = 1.0
    yield _case("heads_disagree", True, disagree)
    yield _case("two_layers_order_matters", True, _random(rng, 2, 2, 3, 5, sharpness=3.0))
    # Masked keys: the last two tokens are padding that no one attends to.
    scores = 1.5 * rng.standard_normal((3, 2, 2, 6, 6))
    scores[..., 4:] = -np.inf
    yield _case("masked_padding_keys", True, _softmax(scores))
    yield _case("peaked_attention", True, _random(rng, 4, 2, 4, 7, sharpness=6.0))
    yield _case("twelve_layers_small", True, _random(rng, 12, 1, 2, 5))
    # ViT-B/32 at 224 x 224 (49 patches + class token, 12 heads, 12 layers) and DeiT-Tiny/16
    # (196 patches + class token, 3 heads, 12 layers).
    yield _case("vit_b32_attention", True, _random(rng, 12, 2, 12, 50, sharpness=2.0))
    yield _case("deit_tiny_attention", True, _random(rng, 12, 1, 3, 197, sharpness=2.0))
    layers, batch, heads, tokens = (int(n) for n in rng.integers(1, 9, size=4))
    yield _case("random_any", True, _random(rng, layers, batch, heads, tokens))

    # Probe inputs (never graded). The result is a probability distribution over the input
    # tokens; and a layer of pure self-attention (Â = I) between two others changes nothing.
    attentions = _random(rng, 2, 2, 3, 5)
    yield _case("probe_rows", True, attentions, probe=True)
    yield _case("probe_two_layers", True, attentions, probe=True)
    identity = np.broadcast_to(np.eye(5), (1, 2, 3, 5, 5))
    yield _case("probe_identity_layer_inserted", True,
                np.concatenate([attentions[:1], identity, attentions[1:]]), probe=True)
