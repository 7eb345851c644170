# The same two workloads as bench_engine.cpp in PyTorch (the peer), one JSON line each.
import json, statistics, sys, time
import torch

torch.set_num_threads(2)


def chain(n, reps):
    fwd, bwd = [], []
    for _ in range(reps):
        x = torch.tensor(0.5, requires_grad=True)
        t0 = time.perf_counter()
        y = x
        for i in range(n):
            k = i % 4
            if k == 0:
                y = y * 1.0001
            elif k == 1:
                y = y + 0.0001
            elif k == 2:
                y = torch.sin(y)
            else:
                y = torch.tanh(y)
        t1 = time.perf_counter()
        (g,) = torch.autograd.grad(y, [x])
        t2 = time.perf_counter()
        fwd.append((t1 - t0) / n * 1e9)
        bwd.append((t2 - t1) / n * 1e9)
    print(json.dumps({"bench": "chain", "n": n, "forward_ns_per_op": statistics.median(fwd),
                      "backward_ns_per_op": statistics.median(bwd)}))


def mlp(steps):
    torch.manual_seed(1)
    w1 = (torch.randn(784, 128) * 0.05).requires_grad_()
    b1 = torch.zeros(128, requires_grad=True)
    w2 = (torch.randn(128, 10) * 0.05).requires_grad_()
    b2 = torch.zeros(10, requires_grad=True)
    x = torch.randn(32, 784)
    y = torch.zeros(32, 10)
    for i in range(32):
        y[i, i % 10] = 1.0
    ms = []
    for s in range(steps):
        t0 = time.perf_counter()
        h = torch.relu(x @ w1 + b1)
        p = torch.softmax(h @ w2 + b2, dim=1)
        loss = -(y * torch.log(p)).sum(dim=1).mean()
        grads = torch.autograd.grad(loss, [w1, b1, w2, b2])
        with torch.no_grad():
            for v, g in zip([w1, b1, w2, b2], grads):
                v -= 0.01 * g
        t1 = time.perf_counter()
        if s > 0:
            ms.append((t1 - t0) * 1e3)
    print(json.dumps({"bench": "mlp", "steps": steps, "ms_per_step": statistics.median(ms),
                      "mean_ms_per_step": statistics.mean(ms)}))


quick = "--quick" in sys.argv
which = [a for a in sys.argv[1:] if a in ("chain", "mlp")] or ["chain", "mlp"]
cfg = torch.__config__.show()
blas = "OpenBLAS" if "openblas" in cfg.lower() else "unknown"
print(json.dumps({"bench": "info", "torch": torch.__version__, "blas_build": blas}), flush=True)
if "chain" in which:
    chain(10000, 3 if quick else 7)
    chain(100000, 1 if quick else 5)
if "mlp" in which:
    mlp(5 if quick else 30)
