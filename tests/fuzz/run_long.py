"""The long hostile-input run: N mutants of the corpus and the adversarial-name corpus through
``analyze`` (every format), ``compare`` and ``check``, with a 20 s limit per input, and every
HTML report of the name corpus loaded in headless Chromium.

    python tests/fuzz/run_long.py                    # 10,000 mutants, seed 1, 2 workers
    python tests/fuzz/run_long.py --mutants 500 --seed 7 --workers 4 --keep /tmp/found
    python tests/fuzz/run_long.py --mutants 0 --no-names --saved 3000   # saved reports only

Prints the figures (tracebacks, exit codes outside 0-3, hangs, control characters on the
terminal, live CSV formulas, non-standard JSON, invalid XML, executed scripts in HTML) and keeps
every failing input under ``--keep`` (default ``tests/fuzz/found/``), ready to be copied into
``tests/fuzz/regressions/`` once fixed. The corpus is ``$RKNNPROF_CORPUS`` or
``../shared/corpus``; without it only the sample logs are mutated.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fuzz import hostile as H  # noqa: E402


def _corpus() -> Path:
    return Path(os.environ.get("RKNNPROF_CORPUS") or H.ROOT.parent / "shared" / "corpus")


def _worker(tasks: mp.Queue, results: mp.Queue, seed: int, work: str) -> None:
    seeds = H.seed_logs(_corpus())
    base, budgets = os.path.join(work, "base.txt"), os.path.join(work, "budgets.yaml")
    log = os.path.join(work, f"mutant-{os.getpid()}.txt")
    while (index := tasks.get()) is not None:
        data = H.mutate(seeds, random.Random(seed * 1_000_003 + index))
        with open(log, "wb") as f:
            f.write(data)
        bad = H.run_input(log, base, budgets, index)
        results.put((index, [(o.argv, o.problems) for o in bad], data if bad else None))


def run_mutants(
    count: int, seed: int, workers: int, timeout: float, work: str, keep: Path
) -> tuple[Counter[str], int]:
    """Run ``count`` mutants on ``workers`` processes; (problem counts, hangs)."""
    tasks: mp.Queue = mp.Queue()
    results: mp.Queue = mp.Queue()
    procs: dict[int, mp.Process] = {}
    started: dict[int, tuple[int, float]] = {}  # pid -> (next index it may be on, since)
    for index in range(count):
        tasks.put(index)
    counts: Counter[str] = Counter()
    hangs = 0
    done: set[int] = set()

    def spawn() -> None:
        p = mp.Process(target=_worker, args=(tasks, results, seed, work), daemon=True)
        p.start()
        procs[p.pid] = p  # type: ignore[index]  # pid is set once start() returned
        started[p.pid] = (-1, time.monotonic())  # type: ignore[index]  # pid is set once start() returned

    for _ in range(workers):
        spawn()
    last_report = time.monotonic()
    progress_at = time.monotonic()
    while len(done) + hangs < count:
        try:
            index, bad, data = results.get(timeout=1)
        except Exception:  # noqa: BLE001 - queue.Empty: look for stuck workers
            index = None
        now = time.monotonic()
        if index is not None:
            done.add(index)
            progress_at = now
            for argv, problems in bad:
                for problem in problems:
                    counts[problem.split(":")[0]] += 1
                print(f"  mutant {index}: {' '.join(argv[:1] + argv[2:])}: {problems}", flush=True)
            if data is not None:
                keep.mkdir(parents=True, exist_ok=True)
                (keep / f"mutant-{seed}-{index}.log").write_bytes(data)
        if now - progress_at > timeout * workers + 5:
            # no result for too long: a worker is stuck on one input; kill them all, restart
            for p in procs.values():
                p.kill()
            stuck = workers
            hangs += stuck
            print(
                f"  hang: no result for {now - progress_at:.0f} s; {stuck} worker(s) killed",
                flush=True,
            )
            procs.clear()
            for _ in range(workers):
                spawn()
            progress_at = now
        if now - last_report > 30:
            print(f"  … {len(done)}/{count} mutants, {sum(counts.values())} problems", flush=True)
            last_report = now
    for _ in procs:
        tasks.put(None)
    for p in procs.values():
        p.join(timeout=5)
    return counts, hangs


def run_names(work: str, html_dir: Path) -> Counter[str]:
    """Every adversarial name through every format of every command; HTML kept for Chromium."""
    counts: Counter[str] = Counter()
    base, budgets = os.path.join(work, "base.txt"), os.path.join(work, "budgets.yaml")
    html_dir.mkdir(parents=True, exist_ok=True)
    for n, name in enumerate((*H.NAMES, H.HUGE_NAME)):
        log = os.path.join(work, "name.txt")
        Path(log).write_bytes(H.log_with_name(name))
        saved = os.path.join(work, "name.json")
        Path(saved).write_text(H.saved_report_with_name(name))
        runs = H.commands(log, base, budgets, 0)[:-2]  # analyze: every format
        for left, right in ((base, log), (saved, saved)):
            runs += [
                (["compare", left, right, "-f", f, "--no-summary"], f, False)
                for f in H.COMPARE_FORMATS
            ]
        for path in (log, saved):
            runs += [
                (["check", path, "--budgets", budgets, "-f", f, "--no-summary"], f, False)
                for f in H.CHECK_FORMATS
            ]
        for argv, fmt, color in runs:
            outcome = H.run_main(argv)
            problems = H.check(outcome, fmt, color)
            for problem in problems:
                counts[problem.split(":")[0]] += 1
            if problems:
                print(
                    f"  name {n} {name[:40]!r}: {' '.join(argv[:1] + argv[2:])}: {problems}",
                    flush=True,
                )
            if fmt == "html" and outcome.code in (0, 1):
                (
                    html_dir / f"name{n:03d}-{argv[0]}-{len(list(html_dir.iterdir()))}.html"
                ).write_text(outcome.stdout, encoding="utf-8", errors="surrogatepass")
    return counts


def chromium_check(html_dir: Path) -> tuple[int, list[str]]:
    """Load each HTML report in headless Chromium; (pages loaded, pages where a script ran)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("  chromium not found: HTML script execution not checked")
        return 0, []
    executed, loaded = [], 0
    control = html_dir / "0-positive-control.html"  # a page that does run the payload
    control.write_text(f'<!DOCTYPE html><html><body><img src=x onerror="{H._JS}"></body></html>')
    if not _executed(browser, control):
        print("  chromium ran no script on the positive control: the check would see nothing")
        return 0, ["positive control not detected"]
    control.unlink()
    for page in sorted(html_dir.glob("*.html")):
        try:
            if _executed(browser, page):
                executed.append(page.name)
            loaded += 1
        except subprocess.TimeoutExpired:
            executed.append(f"{page.name}: timeout")
    return loaded, executed


def _executed(browser: str, page: Path) -> bool:
    """Whether an injected script ran: the attribute it sets is on Chromium's <html> element
    (the DOM after scripts ran), or the page did not load at all."""
    dom = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=3000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    tag = re.search(r"<html[^>]*>", dom)
    return tag is None or H.PWNED in tag.group()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--keep", type=Path, default=H.ROOT / "tests" / "fuzz" / "found")
    parser.add_argument("--no-names", action="store_true")
    parser.add_argument(
        "--saved", type=int, default=1000, help="mutants of a saved JSON report (compare/check)"
    )
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="rknnprof-hostile-")
    shutil.copy(H.SAMPLE, os.path.join(work, "base.txt"))
    Path(work, "budgets.yaml").write_text(H.BUDGETS)
    start = time.monotonic()
    counts, hangs = run_mutants(
        args.mutants, args.seed, args.workers, args.timeout, work, args.keep
    )
    mutant_seconds = time.monotonic() - start
    names, loaded, executed = Counter(), 0, []
    if not args.no_names:
        names = run_names(work, Path(work, "html"))
        loaded, executed = chromium_check(Path(work, "html"))
    saved_start = time.monotonic()
    saved, saved_peak_mb = run_saved(args.saved, args.seed, work, args.keep)
    saved_seconds = time.monotonic() - saved_start
    total = counts + names + saved
    runs = args.mutants * 10 + (
        0 if args.no_names else (len(H.NAMES) + 1) * 28
    )  # 8 analyze + 10 compare + 10 check
    print(
        f"\n{args.mutants} mutants (seed {args.seed}) in {mutant_seconds:.0f} s and "
        f"{0 if args.no_names else len(H.NAMES) + 1} names: about {runs} command runs"
    )
    print(
        f"{args.saved} saved-report mutants in {saved_seconds:.0f} s (4 runs each), "
        f"peak RSS {saved_peak_mb} MB"
    )
    for kind in (
        "inf or nan in the output",
        "traceback",
        "exit code",
        "control character",
        "live CSV formula",
        "non-standard JSON",
        "invalid XML",
        "traceback on stderr",
    ):
        print(f"  {kind:<22} {total.get(kind, 0)}")
    print(f"  {'hangs over ' + str(int(args.timeout)) + ' s':<22} {hangs}")
    print(
        f"  {'HTML scripts executed':<22} {len(executed)} of {loaded} pages in Chromium"
        + (f": {executed[:5]}" if executed else "")
    )
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if sum(total.values()) or hangs or executed else 0)


def run_saved(count: int, seed: int, work: str, keep: Path) -> tuple[Counter[str], int]:
    """``count`` mutants of a saved report through compare and check, in this process (each
    run is milliseconds); (problem counts, peak RSS in MB)."""
    import json
    import resource

    from tests.fuzz import saved_reports as S

    base = S.seed_report()
    valid = os.path.join(work, "valid.json")
    Path(valid).write_text(json.dumps(base), encoding="utf-8")
    budgets = os.path.join(work, "budgets.yaml")
    counts: Counter[str] = Counter()
    for index in range(count):
        data = S.mutate(base, random.Random(seed * 7_000_003 + index))
        mutant = os.path.join(work, "saved-mutant.json")
        Path(mutant).write_bytes(data)
        for outcome in S.run_mutant(mutant, valid, budgets, index):
            for problem in outcome.problems:
                counts[problem.split(":")[0]] += 1
            keep.mkdir(parents=True, exist_ok=True)
            (keep / f"saved-{seed}-{index}.json").write_bytes(data)
            print(f"saved mutant {index}: {outcome.argv[:2]} {outcome.problems}", flush=True)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return counts, peak_mb


if __name__ == "__main__":
    main()
