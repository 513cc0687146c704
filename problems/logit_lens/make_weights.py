"""Train the tiny model whose hidden states one logit_lens test reads, and write them into generator.py.

NumPy only, deterministic, about ten seconds of CPU:  python problems/logit_lens/make_weights.py

The model is a 2-layer pre-norm transformer (D = 16, 2 heads, hidden width 64, learned token and
position embeddings, a final layer norm and an untied unembedding over V = 8 tokens), trained with
hand-written backpropagation and Adam on a next-token task that needs attention: each sequence is
a random block of PERIOD tokens repeated, so from position PERIOD - 1 on, the next token is the one
PERIOD - 1 positions back. The script writes the residual stream at every layer boundary for two
fresh sequences, with the final layer norm and the unembedding, between the markers in generator.py.
It also writes the whole model into the generator.py of each package of GPT_PACKAGES that exists.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

V, PERIOD, LENGTH, D, HEADS, HIDDEN, LAYERS = 8, 4, 12, 16, 2, 64, 2
STEPS, BATCH, LR, EPS = 400, 64, 1e-2, 1e-5
BEGIN = "# --- written by logit_lens/make_weights.py: do not edit by hand ---"
END = "# --- end of the trained model ---"
GPT_PACKAGES = ("gpt_next_token_logits", "greedy_decode", "decode_with_kv_cache", "activation_patching")


def erf(x: np.ndarray) -> np.ndarray:
    # Series for |x| < 2, continued fraction of erfc beyond (as in the block problems' references).
    a, out = np.abs(x), np.empty_like(x)
    small = a < 2.0
    s = a[small]
    term, total = s.copy(), s.copy()
    for n in range(1, 30):
        term *= 2.0 * s * s / (2 * n + 1)
        total += term
    out[small] = 2.0 / math.sqrt(math.pi) * np.exp(-s * s) * total
    b = a[~small]
    tail = np.zeros_like(b)
    for k in range(40, 0, -1):
        tail = (k / 2.0) / (b + tail)
    out[~small] = 1.0 - np.exp(-b * b) / math.sqrt(math.pi) / (b + tail)
    return np.sign(x) * out


def init(rng: np.random.Generator) -> dict:
    def m(*shape):
        return rng.standard_normal(shape) / math.sqrt(shape[-2])

    p = {
        "tok": 0.5 * rng.standard_normal((V, D)),
        "pos": 0.5 * rng.standard_normal((LENGTH, D)),
        "lnf_g": np.ones(D),
        "lnf_b": np.zeros(D),
        "unembed": m(D, V),
    }
    for name in ("w_q", "w_k", "w_v", "w_o"):
        p[name] = m(LAYERS, D, D)
    p["w1"], p["b1"] = m(LAYERS, D, HIDDEN), np.zeros((LAYERS, HIDDEN))
    p["w2"], p["b2"] = m(LAYERS, HIDDEN, D) * 0.5, np.zeros((LAYERS, D))
    for name in ("ln1_g", "ln2_g"):
        p[name] = np.ones((LAYERS, D))
    for name in ("ln1_b", "ln2_b"):
        p[name] = np.zeros((LAYERS, D))
    return p


def batch_of(rng: np.random.Generator, n: int) -> np.ndarray:
    block = rng.integers(0, V, size=(n, PERIOD))
    return np.tile(block, (1, LENGTH // PERIOD))


def ln_fwd(x, g, b):
    mu = x.mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + EPS)
    xhat = (x - mu) * rstd
    return xhat * g + b, (xhat, rstd, g)


def ln_bwd(dy, cache):
    xhat, rstd, g = cache
    dxhat = dy * g
    dx = rstd * (dxhat - dxhat.mean(-1, keepdims=True) - xhat * (dxhat * xhat).mean(-1, keepdims=True))
    return dx, (dy * xhat).reshape(-1, D).sum(0), dy.reshape(-1, D).sum(0)


def split(t):
    b, n, _ = t.shape
    return t.reshape(b, n, HEADS, D // HEADS).transpose(0, 2, 1, 3)


def merge(t):
    b, _, n, _ = t.shape
    return t.transpose(0, 2, 1, 3).reshape(b, n, D)


def forward(p: dict, tokens: np.ndarray):
    """Hidden states at every layer boundary, the logits, and the caches for backprop."""
    n = tokens.shape[1]
    x = p["tok"][tokens] + p["pos"][:n]
    states, caches = [x], []
    mask = np.triu(np.full((n, n), -np.inf), k=1)
    for l in range(LAYERS):
        a, c_ln1 = ln_fwd(x, p["ln1_g"][l], p["ln1_b"][l])
        q, k, v = split(a @ p["w_q"][l]), split(a @ p["w_k"][l]), split(a @ p["w_v"][l])
        s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(D // HEADS) + mask
        w = np.exp(s - s.max(-1, keepdims=True))
        w /= w.sum(-1, keepdims=True)
        merged = merge(w @ v)
        h = x + merged @ p["w_o"][l]
        c, c_ln2 = ln_fwd(h, p["ln2_g"][l], p["ln2_b"][l])
        u = c @ p["w1"][l] + p["b1"][l]
        gu = 0.5 * u * (1.0 + erf(u / math.sqrt(2.0)))
        x = h + gu @ p["w2"][l] + p["b2"][l]
        states.append(x)
        caches.append((a, c_ln1, q, k, v, w, merged, c, c_ln2, u, gu))
    f, c_lnf = ln_fwd(x, p["lnf_g"], p["lnf_b"])
    return states, f @ p["unembed"], (caches, f, c_lnf)


def flat(t: np.ndarray) -> np.ndarray:
    return t.reshape(-1, t.shape[-1])


def backward(p: dict, tokens: np.ndarray, dlogits: np.ndarray, cache) -> dict:
    caches, f, c_lnf = cache
    grads = {name: np.zeros_like(value) for name, value in p.items()}
    grads["unembed"] = f.reshape(-1, D).T @ dlogits.reshape(-1, V)
    dx, grads["lnf_g"], grads["lnf_b"] = ln_bwd(dlogits @ p["unembed"].T, c_lnf)
    for l in reversed(range(LAYERS)):
        a, c_ln1, q, k, v, w, merged, c, c_ln2, u, gu = caches[l]
        grads["b2"][l] = flat(dx).sum(0)
        grads["w2"][l] = flat(gu).T @ flat(dx)
        dgu = dx @ p["w2"][l].T
        du = dgu * (0.5 * (1.0 + erf(u / math.sqrt(2.0))) + u * np.exp(-0.5 * u * u) / math.sqrt(2 * math.pi))
        grads["b1"][l] = flat(du).sum(0)
        grads["w1"][l] = flat(c).T @ flat(du)
        dh_ln, grads["ln2_g"][l], grads["ln2_b"][l] = ln_bwd(du @ p["w1"][l].T, c_ln2)
        dh = dx + dh_ln
        grads["w_o"][l] = flat(merged).T @ flat(dh)
        dheads = split(dh @ p["w_o"][l].T)
        dw = dheads @ v.transpose(0, 1, 3, 2)
        dv = w.transpose(0, 1, 3, 2) @ dheads
        ds = w * (dw - (dw * w).sum(-1, keepdims=True)) / math.sqrt(D // HEADS)
        dq, dk = ds @ k, ds.transpose(0, 1, 3, 2) @ q
        da = np.zeros_like(a)
        for name, dt in (("w_q", dq), ("w_k", dk), ("w_v", dv)):
            grads[name][l] = flat(a).T @ flat(merge(dt))
            da += merge(dt) @ p[name][l].T
        dx_ln, grads["ln1_g"][l], grads["ln1_b"][l] = ln_bwd(da, c_ln1)
        dx = dh + dx_ln
    np.add.at(grads["tok"], tokens, dx)
    grads["pos"][: tokens.shape[1]] = dx.sum(0)
    return grads


def loss_and_grad(logits: np.ndarray, tokens: np.ndarray):
    # Predict token i + 1 from positions i >= PERIOD - 1, where the pattern makes it knowable.
    z = logits[:, PERIOD - 1 : -1]
    target = tokens[:, PERIOD:]
    z = z - z.max(-1, keepdims=True)
    prob = np.exp(z) / np.exp(z).sum(-1, keepdims=True)
    count = target.size
    loss = -np.log(np.take_along_axis(prob, target[..., None], -1)).sum() / count
    dz = prob.copy()
    np.put_along_axis(dz, target[..., None], np.take_along_axis(dz, target[..., None], -1) - 1.0, -1)
    dlogits = np.zeros_like(logits)
    dlogits[:, PERIOD - 1 : -1] = dz / count
    return loss, dlogits


def train(seed: int = 0) -> tuple[dict, np.random.Generator]:
    rng = np.random.default_rng(seed)
    p = init(rng)
    m = {k: np.zeros_like(v) for k, v in p.items()}
    s = {k: np.zeros_like(v) for k, v in p.items()}
    for step in range(1, STEPS + 1):
        tokens = batch_of(rng, BATCH)
        _, logits, cache = forward(p, tokens)
        loss, dlogits = loss_and_grad(logits, tokens)
        grads = backward(p, tokens, dlogits, cache)
        for k in p:  # Adam
            m[k] = 0.9 * m[k] + 0.1 * grads[k]
            s[k] = 0.999 * s[k] + 0.001 * grads[k] ** 2
            p[k] -= LR * (m[k] / (1 - 0.9**step)) / (np.sqrt(s[k] / (1 - 0.999**step)) + 1e-8)
        if step % 100 == 0:
            print(f"step {step}: loss {loss:.4f}")
    return p, rng


def literal(name: str, array: np.ndarray) -> str:
    values = ", ".join(f"{v:.9g}" for v in np.asarray(array).ravel())
    return f"{name} = _array([{values}], {tuple(np.shape(array))})"


def write_block(path: Path, lines: list[str]) -> None:
    text = path.read_text()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    path.write_text(text[:start] + "\n" + "\n".join(lines) + "\n" + text[end:])


def report_lens(hidden: np.ndarray, p: dict, tokens: np.ndarray) -> None:
    """Print what the lens reads at each layer, and insist that the prediction sharpens with depth."""
    normed, _ = ln_fwd(hidden, p["lnf_g"], p["lnf_b"])
    z = normed @ p["unembed"]
    prob = np.exp(z - z.max(-1, keepdims=True))
    prob /= prob.sum(-1, keepdims=True)
    prob = prob[:, :, PERIOD - 1 : -1]  # the positions whose next token the pattern determines
    target = np.broadcast_to(tokens[None, :, PERIOD:, None], prob.shape[:-1] + (1,))
    correct = np.take_along_axis(prob, target, -1)[..., 0].mean(axis=(1, 2))
    entropy = -(prob * np.log(prob)).sum(-1).mean(axis=(1, 2))
    for layer, (c, e) in enumerate(zip(correct, entropy)):
        print(f"lens at layer {layer}: mean p(next token) {c:.4f}, mean entropy {e:.4f} nats")
    assert np.all(np.diff(correct) > 0) and np.all(np.diff(entropy) < 0), "the lens does not sharpen with depth"


def main() -> None:
    p, rng = train()
    tokens = batch_of(rng, 2)
    states, logits, _ = forward(p, tokens)
    hidden = np.stack(states)  # (LAYERS + 1, 2, LENGTH, D)
    print("tokens", tokens.tolist())
    print(
        "final accuracy on the knowable positions:",
        (logits[:, PERIOD - 1 : -1].argmax(-1) == tokens[:, PERIOD:]).mean(),
    )
    report_lens(hidden, p, tokens)
    here = Path(__file__).resolve().parent
    write_block(
        here / "generator.py",
        [
            literal("TRAINED_TOKENS", tokens),
            literal("TRAINED_HIDDEN", hidden),
            literal("TRAINED_LN_GAMMA", p["lnf_g"]),
            literal("TRAINED_LN_BETA", p["lnf_b"]),
            literal("TRAINED_UNEMBED", p["unembed"]),
        ],
    )
    # The same model runs in the GPT capstone's tests and in the decoding problems' tests.
    for gpt in (here.parent / slug / "generator.py" for slug in GPT_PACKAGES):
        if not (gpt.exists() and BEGIN in gpt.read_text()):
            continue
        names = {
            "tok": "w_token_embed",
            "pos": "w_pos_embed",
            "ln1_g": "ln1_gamma",
            "ln1_b": "ln1_beta",
            "ln2_g": "ln2_gamma",
            "ln2_b": "ln2_beta",
            "lnf_g": "ln_gamma",
            "lnf_b": "ln_beta",
            "unembed": "w_unembed",
        }
        write_block(
            gpt,
            [literal("TRAINED_TOKENS", tokens)]
            + [literal(f"TRAINED_{names.get(k, k).upper()}", v) for k, v in p.items()],
        )


if __name__ == "__main__":
    main()
