"""scripts/bench.py --quick runs every figure of its kernel section, so the script cannot rot."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_quick_alternates_kernel_baseline_and_yardstick(tmp_path):
    figures_path = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick", "--json", str(figures_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(figures_path.read_text())
    assert set(figures) == {"wankul", "mtg_plain", "mtg"}
    for figure in figures.values():
        assert figure["kernel_trials_per_s"] > figure["baseline_trials_per_s"] > 0
        assert 0 < figure["p"] < 1
    assert figures["wankul"]["max_abs_z"] < 5
    # The compiled loops are there when cargo is, and the output says why when they are not.
    if "compiled_prefix_trials_per_s" in figures["mtg"]:
        for key in ("mtg", "mtg_plain"):
            assert figures[key]["kernel_over_compiled_prefix_best"] > 0
            assert figures[key]["kernel_over_compiled_full_median"] > 0
    else:
        assert "no compiled yardstick" in done.stdout


def test_bench_quick_times_the_two_player_wankul_curve(tmp_path):
    figures_path = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick", "--wankul-curve",
                           "--no-kernel", "--json", str(figures_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(figures_path.read_text())["wankul_curve"]
    assert set(figures) == {"hold", "curve"}
    assert all(f["ratio_best"] > 0 and f["one_player_s"] > 0 for f in figures.values())


def test_bench_quick_times_the_effects_side(tmp_path):
    figures_path = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick", "--effects", "--no-kernel",
                           "--json", str(figures_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(figures_path.read_text())["effects"]
    assert figures["side_games_per_s"] > 0 and figures["kernel_games_per_s"] > 0


def test_bench_quick_times_the_explorer(tmp_path):
    figures_path = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick", "--explore", "--no-kernel",
                           "--json", str(figures_path)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    figures = json.loads(figures_path.read_text())["explore"]
    for game in ("wankul", "duel-masters"):
        assert figures[game]["median_ms"] > 0 and figures[game]["p95_ms"] >= figures[game]["median_ms"]
        assert figures[game]["odds_median_ms"] > 0
    assert figures["simulated"]["settled_median_ms"] > figures["simulated"]["first_median_ms"] > 0
    # The page is timed where a browser is installed, and the output says why when it is not.
    assert "page" in figures or "The page was not timed" in done.stdout


def test_bench_quick_times_the_light_commands_against_import_typer(tmp_path):
    figures_path = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick", "--startup", "--no-kernel",
                           "--json", str(figures_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(figures_path.read_text())["startup"]
    assert {"games", "games show wankul", "--help", "odds --help"} <= set(figures)
    for name in ("games", "--help", "odds --help"):
        low, middle = figures[name]["cpu_ratio"]
        assert 0 < low <= middle
        assert figures[name]["wall_ratio"][0] > 0


def test_bench_quick_times_the_report_command(tmp_path):
    figures_path = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick", "--report", "--no-kernel",
                           "--json", str(figures_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(figures_path.read_text())["report"]
    assert set(figures) == {"load_1min", "rounds", "baseline", "wankul"}
    for name in ("baseline", "wankul"):
        assert figures[name]["wall_median"] > 0 and figures[name]["cpu_median"] > 0
    assert figures["wankul"]["cpu_ratio_median"] > 1  # a report does more than import its libraries


def test_bench_quick_times_the_batch_overhead(tmp_path):
    figures_path = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick", "--batch-overhead",
                           "--no-kernel", "--json", str(figures_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(figures_path.read_text())["batch_overhead"]
    assert set(figures) == {"exact", "simulated"}
    assert figures["exact"]["tasks"] == 100 and figures["simulated"]["tasks"] == 20
    for figure in figures.values():
        assert figure["same_p"]  # the batch's rows are the loop's numbers
        assert figure["batch_cpu_min_s"] > 0 and figure["loop_cpu_min_s"] > 0
        assert figure["overhead_cpu_ms_median"] == figure["overhead_cpu_ms_median"]  # a number, not NaN


def test_bench_quick_times_simulated_commands_and_workers(tmp_path):
    figures_path = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick", "--simulated-start",
                           "--workers-commands", "--no-kernel", "--json", str(figures_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    figures = json.loads(figures_path.read_text())
    start = figures["simulated_start"]
    assert start["wankul odds (now)"]["ratio_median"] > 0
    assert start["first run: wankul odds, 200,000 trials (now)"]["ratio_median"] > 0
    assert figures["workers_commands"]["odds, wankul sample"]["speedup_median"] > 0
    assert "Simulated at the default trials" in done.stdout and "--workers 2" in done.stdout
