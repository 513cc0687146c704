"""Track 3's capstone in a real browser: a student solves the pieces with their own code, trains a one-block
ViT built from them, is accepted, and sees their loss curve drawn beside the reference's."""

from __future__ import annotations

import shutil

import pytest

from judge.authoring.sync import sync_problems
from judge.problems.models import Problem
from tests.browser.conftest import open_problem, replace_code, screenshot, sign_up, submit_and_wait
from tests.browser.test_building_on_your_own_code import with_prerequisites
from tests.conftest import PROBLEMS, read_solution
from tests.students import graded

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "vit_train_steps"
# Submitted on the page, one by one.
IN_THE_BROWSER = ["cls_token_gradient", "positional_embedding_gradient"]
# Solved earlier (accepted submissions as a worker leaves them), with the student's own code where it is short;
# the block's forward and backward are written as the references are.
EARLIER = ["image_to_patches", "layer_norm", "softmax_cross_entropy", "cross_entropy_grad_logits", "linear_backward"]
AS_THE_REFERENCE = ["pre_ln_block", "layer_norm_affine_backward", "pre_ln_block_backward"]

# The student's own versions: correct, and written unlike the references.
OWN = {
    "cls_token_gradient": """import numpy as np


def cls_token_gradient(grad_sequence):
    # one class token, read by every image at slot 0
    return np.sum(grad_sequence[:, 0:1, :], axis=0)[None]
""",
    "positional_embedding_gradient": """import numpy as np


def positional_embedding_gradient(grad_tokens):
    total = np.zeros((1,) + grad_tokens.shape[1:])
    for image in grad_tokens:
        total[0] += image
    return total
""",
    "image_to_patches": """import numpy as np


def image_to_patches(images, patch_size):
    b, h, w, c = images.shape
    p = patch_size
    blocks = images.reshape(b, h // p, p, w // p, p, c).swapaxes(2, 3)
    return blocks.reshape(b, -1, p * p * c).copy()
""",
    "layer_norm": """import numpy as np


def layer_norm(x, gamma, beta, eps):
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta
""",
    "softmax_cross_entropy": """import numpy as np


def softmax_cross_entropy(logits, labels):
    top = logits.max(axis=1, keepdims=True)
    log_probs = logits - top - np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
    picked = log_probs[np.arange(len(labels)), labels.astype(int)]
    return np.array(-picked.mean())
""",
    "cross_entropy_grad_logits": """import numpy as np


def cross_entropy_grad_logits(logits, labels):
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    one_hot = np.eye(logits.shape[1])[labels.astype(int)]
    return (probs - one_hot) / logits.shape[0]
""",
    "linear_backward": """import numpy as np


def linear_backward(x, weight, grad_out):
    rows = x.reshape(-1, x.shape[-1])
    grad_weight = np.einsum("ni,nj->ij", rows, grad_out.reshape(-1, grad_out.shape[-1]))
    grad_bias = grad_out.reshape(-1, grad_out.shape[-1]).sum(axis=0)
    return grad_out @ weight.T, grad_weight, grad_bias
""",
}

# The training loop, from the student's own pieces.
ASSEMBLED = """import numpy as np
from solved import image_to_patches, layer_norm, pre_ln_block, softmax_cross_entropy, cross_entropy_grad_logits
from solved import linear_backward, layer_norm_affine_backward, pre_ln_block_backward
from solved import cls_token_gradient, positional_embedding_gradient

BLOCK = ["ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o", "ln2_gamma", "ln2_beta", "w1", "b1", "w2", "b2"]


def loss_and_gradients(images, labels, p, patch_size, n_heads):
    # The forward, keeping what the backward pieces need.
    patches = image_to_patches(images, patch_size)
    tokens = patches @ p["w_patch"] + p["b_patch"]
    cls = np.broadcast_to(p["cls_token"], (tokens.shape[0], 1, tokens.shape[2]))
    x = np.concatenate([cls, tokens], axis=1) + p["pos_embed"]
    block = {name: p[name][0] for name in BLOCK}
    out = pre_ln_block(x, *[block[name] for name in BLOCK], n_heads, False)
    state = out[:, 0]
    pooled = layer_norm(state, p["ln_gamma"], p["ln_beta"], 1e-5)
    logits = pooled @ p["w_head"] + p["b_head"]

    # The backward, from the loss down to the pixels' projection.
    g_pooled, g_w_head, g_b_head = linear_backward(pooled, p["w_head"], cross_entropy_grad_logits(logits, labels))
    g_state, g_ln_gamma, g_ln_beta = layer_norm_affine_backward(state, p["ln_gamma"], g_pooled, 1e-5)
    g_out = np.zeros(out.shape)
    g_out[:, 0] = g_state  # only the class token reaches the head
    g = pre_ln_block_backward(x, block, n_heads, False, g_out)
    _, g_w_patch, g_b_patch = linear_backward(patches, p["w_patch"], g["x"][:, 1:])
    grads = {name: g[name][None] for name in BLOCK}
    grads.update(w_patch=g_w_patch, b_patch=g_b_patch, cls_token=cls_token_gradient(g["x"]),
                 pos_embed=positional_embedding_gradient(g["x"]), ln_gamma=g_ln_gamma, ln_beta=g_ln_beta,
                 w_head=g_w_head, b_head=g_b_head)
    return softmax_cross_entropy(logits, labels), grads


def vit_train_steps(images, labels, params, patch_size, n_heads, lr, steps):
    p = dict(params)
    losses = []
    for _ in range(steps):
        loss, grads = loss_and_gradients(images, labels, p, patch_size, n_heads)
        losses.append(loss)
        p = {name: p[name] - lr * grads[name] for name in p}
    return np.array(losses, dtype=np.float64)
"""


@pytest.fixture
def training_site(live_server, grading_worker, tmp_path, process_sandbox):
    """The live server with vit_train_steps and what it needs published (its closure of prerequisites, and
    nothing else, so a package someone is still writing cannot break it), and a worker grading."""
    for slug in with_prerequisites(SLUG):
        shutil.copytree(PROBLEMS / slug, tmp_path / slug)
    outcomes = sync_problems(tmp_path, sandbox=process_sandbox)
    assert all(o.action == "created" for o in outcomes), [
        (o.slug, o.action, o.note) for o in outcomes if o.action != "created"
    ]
    return live_server.url


def test_a_student_trains_a_vit_built_from_their_own_pieces_and_sees_the_loss_curve(training_site, page):
    site = training_site
    username = sign_up(page, site)
    student = Problem.objects.model._meta.apps.get_model("auth", "User").objects.get(username=username)
    problems = {p.slug: p for p in Problem.objects.all()}
    for minute, slug in enumerate(EARLIER + AS_THE_REFERENCE):
        graded(student, problems[slug], code=OWN.get(slug) or read_solution(slug), minute=minute)
    for slug in IN_THE_BROWSER:
        open_problem(page, site, slug)
        replace_code(page, OWN[slug])
        assert submit_and_wait(page).query_selector("#verdict").inner_text() == "Accepted"

    open_problem(page, site, SLUG)
    assert page.inner_text("#builds-on h2") == "Built from your own code"
    assert page.locator("#builds-on li.solved").count() == 10
    replace_code(page, ASSEMBLED)
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    assert page.locator("#result li.test.passed").count() >= 12
    used = page.inner_text("#result .built-on")
    assert all(f"of {slug}" in used for slug in IN_THE_BROWSER + EARLIER)

    # Each visible run drawn: the student's losses and the reference's, step by step; no hidden run is.
    for example, steps in (("example_1", 4), ("example_random", 6)):
        curve = page.locator(f'#result .curve[data-test="{example}"] svg.loss-curves')
        curve.wait_for()
        assert curve.locator("polyline").count() == 2 and curve.locator("circle").count() == 2 * steps
    first = page.locator('#result .curve[data-test="example_1"] circle title').all_text_contents()
    assert "yours, step 0: 2.69665" in first and "reference, step 0: 2.69665" in first  # the statement's numbers
    assert page.locator("#result li.hidden-test svg").count() == 0
    screenshot(page, "vit-train-steps-accepted")
