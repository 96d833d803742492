"""Tabulates the agent benchmark's JSON lines into the agent section of benchmarks/README.md.

    python3 benchmarks/agent/report.py RESULTS.jsonl META.json benchmarks/README.md

RESULTS holds the lines bench_agent, bench_agent.py and the peers printed, each tagged by
scripts/bench with "round" (and "kind": sequential, concurrent, idle, parse). META holds
the machine and the versions. The section between the agent-bench markers is replaced
(or appended when the README has none yet).
"""
import json
import statistics
import sys
from collections import defaultdict

START = "<!-- agent-bench:start -->"
END = "<!-- agent-bench:end -->"

CONTENDERS = [
    ("floor", "floor (libcurl only)"),
    ("hermes_cpp", "hermes C++"),
    ("hermes_cpp_store", "hermes C++, SQLite store"),
    ("hermes_cpp_store_normal", "hermes C++, SQLite store, durability normal"),
    ("hermes_cpp_traced", "hermes C++, tracing to an OTLP receiver"),
    ("hermes_py", "hermes Python"),
    ("hermes_py_store", "hermes Python, SQLite store"),
    ("vercel_ai", "Vercel AI SDK"),
    ("openai_agents", "OpenAI Agents SDK"),
]
PEERS = ["vercel_ai", "openai_agents"]
HISTORIES = [10, 100, 1000]

# Targets: hermes C++ overhead per step as a share of the floor's time per step.
OVERHEAD_TARGETS = {100: 0.10, 1000: 0.25}


INTRO = """
A scripted conversation served by the loopback mock server (`hermes-mock-server
--conversation-script`): each of the first 7 model calls answers with a tool call `add`
(`{"a": n, "b": 1}`), the 8th with a final text; the contender runs `add` locally and sends
the result back, so a conversation is 8 steps (8 HTTP exchanges, 7 tool runs). Each
conversation carries a prior history in (10, 100 or 1,000 messages: user questions,
assistant tool calls with results of 0.2-3 KB, assistant answers of 0.2-1.5 KB; about
0.7 KB a message on average, 70 KB per 100 messages), streamed (SSE) or not. The server
answers from prepared bytes, one thread per keep-alive connection, and each conversation
walks the script on its own (path `/c/<key>/`), so concurrent conversations never steal
each other's answers.

Contenders, each a fresh agent per conversation, all against the same two servers
(streaming and not) in the same run:

- **floor**: `bench_agent floor`, libcurl alone on one keep-alive connection, replaying
  the request bodies hermes sent (captured from a hermes conversation on an in-process
  server), reading and dropping the answers: the cost of the HTTP exchanges themselves.
- **hermes C++**: `bench_agent hermes`, `hermes::Agent::run_conversation` with the
  history, store off (`persist_sessions = false`) and on (SQLite at a scratch home).
- **hermes Python**: `benchmarks/agent/bench_agent.py`, `import hermes` (the pybind11
  module), `Agent.run_conversation`, store off and on.
- **Vercel AI SDK**: `benchmarks/peers/vercel_ai.mjs`, `generateText` / `streamText`
  with `@ai-sdk/openai-compatible` and `stopWhen: stepCountIs(9)`.
- **OpenAI Agents SDK**: `benchmarks/peers/openai_agents.mjs`, `run()` of an `Agent`
  with `OpenAIChatCompletionsModel` (tracing off).

hermes runs with its defaults but for the store and a stated context window (1,000,000
tokens, so no metadata probe is made): context compression stays on and checks the
request size at every step, but never fires. hermes sends its own system prompt; the
peers get a one-line instruction. Times are per step (per model call including the tool
run), of the whole process (all threads; for Node, V8's and libuv's threads too), after
one warm-up conversation. Each figure is the
median of the rounds with [min–max]; the rounds interleave the contenders, and the ratios
to the floor are taken round by round (same minute, same machine load), then their median.
Peak RSS is the process's (Node and CPython include their runtimes).

Reproduce (6-9 minutes on 2 shared cores once built; npm needs the registry):

```sh
scripts/bench                      # builds, installs the peers (npm ci), runs, writes this
HERMES_BENCH_ROUNDS=1 scripts/bench --no-readme   # a shorter run, printed only
```

A single contender by hand, after `scripts/bench` has built everything:

```sh
build/ci/benchmarks/agent/bench_agent workload --out WORK --steps 8
build/ci/tests/support/hermes-mock-server --conversation-script WORK/script-stream.json --quiet --no-record &
build/ci/benchmarks/agent/bench_agent hermes --server http://127.0.0.1:PORT \\
    --history WORK/history-100.json --steps 8 --stream 1 --conversations 10 --runs 3
```
"""


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def spread(values):
    """median [min-max] of a list."""
    return statistics.median(values), min(values), max(values)


def fmt_us(value):
    if value >= 10_000:
        return f"{value / 1000:,.1f} ms"
    if value >= 1000:
        return f"{value / 1000:,.2f} ms"
    return f"{value:,.0f} µs"


def fmt_spread(values, fmt=fmt_us):
    mid, lo, hi = spread(values)
    return f"{fmt(mid)} [{fmt(lo)}–{fmt(hi)}]"


def fmt_ratio(value):
    return f"{value:.2f}x" if value < 10 else f"{value:.0f}x"


def fmt_share(ratio):
    """hermes's figure over a peer's: 1/x when hermes needs less, else a multiple."""
    return f"1/{1 / ratio:.1f}" if ratio <= 1 else f"{ratio:.2f}x"


def verdict(ok):
    return "met" if ok else "**missed**"


class Results:
    def __init__(self, lines):
        self.seq = defaultdict(list)  # (contender, history, stream) -> lines
        self.by_round = {}  # (contender, history, stream, round) -> line
        self.concurrent = defaultdict(list)
        self.idle = [l for l in lines if l.get("kind") == "idle"]
        self.many = [l for l in lines if l.get("kind") == "many"]
        self.parse = [l for l in lines if l.get("kind") == "parse"]
        for l in lines:
            key = (l.get("contender"), l.get("history"), l.get("stream"))
            if l.get("kind") == "sequential":
                self.seq[key].append(l)
                self.by_round[key + (l["round"],)] = l
            elif l.get("kind") == "concurrent":
                self.concurrent[l["contender"]].append(l)

    def values(self, contender, history, stream, field):
        return [l[field] for l in self.seq[(contender, history, stream)]]

    def ratios(self, contender, history, stream, field, other="floor", diff=False):
        """Per round: contender's field against `other`'s in the same round."""
        out = []
        for l in self.seq[(contender, history, stream)]:
            base = self.by_round.get((other, history, stream, l["round"]))
            if base is None:
                continue
            out.append(l[field] - base[field] if diff else l[field] / base[field])
        return out


def per_step_table(r, stream):
    rows = ["| Contender | Prior messages | Wall per step | CPU per step | Wall / floor "
            "| CPU / floor | Peak RSS |", "|---|---|---|---|---|---|---|"]
    for history in HISTORIES:
        for name, label in CONTENDERS:
            wall = r.values(name, history, stream, "wall_per_step_us")
            if not wall:
                continue
            cpu = r.values(name, history, stream, "cpu_per_step_us")
            rss = max(r.values(name, history, stream, "peak_rss_kib")) / 1024
            if name == "floor":
                wr = cr = "1"
            else:
                wr = fmt_ratio(statistics.median(r.ratios(name, history, stream, "wall_per_step_us")))
                cr = fmt_ratio(statistics.median(r.ratios(name, history, stream, "cpu_per_step_us")))
            rows.append(f"| {label} | {history:,} | {fmt_spread(wall)} | {fmt_spread(cpu)} "
                        f"| {wr} | {cr} | {rss:,.0f} MiB |")
    return "\n".join(rows)


def overhead_table(r, targets):
    rows = ["| Prior messages | Streaming | Floor wall per step | hermes C++ − floor, wall | "
            "Share of floor | Target | | Floor CPU per step | hermes C++ − floor, CPU |",
            "|---|---|---|---|---|---|---|---|---|"]
    for history in HISTORIES:
        for stream in (True, False):
            floor = r.values("floor", history, stream, "wall_per_step_us")
            over = r.ratios("hermes_cpp", history, stream, "wall_per_step_us", diff=True)
            if not floor or not over:
                continue
            share = statistics.median(over) / statistics.median(floor)
            target = OVERHEAD_TARGETS.get(history)
            mark = ""
            if target is not None:
                mark = verdict(share < target)
                targets.append((f"C++ overhead per step < {target:.0%} of floor at {history:,} "
                                f"messages ({'streaming' if stream else 'not streaming'})",
                                f"{share:.0%}", mark))
            floor_cpu = r.values("floor", history, stream, "cpu_per_step_us")
            over_cpu = r.ratios("hermes_cpp", history, stream, "cpu_per_step_us", diff=True)
            rows.append(f"| {history:,} | {'on' if stream else 'off'} | {fmt_spread(floor)} "
                        f"| {fmt_spread(over)} | {share:.0%} "
                        f"| {'< ' + format(target, '.0%') if target else ''} | {mark} "
                        f"| {fmt_spread(floor_cpu)} | {fmt_spread(over_cpu)} |")
    return "\n".join(rows)


def engine_targets(r, targets):
    """The turn engine's targets: CPU against the floor, Python against C++, the peers,
    and the store with durability=normal against the store off."""
    def median_ratio(contender, history, stream, field, other):
        values = r.ratios(contender, history, stream, field, other=other)
        return statistics.median(values) if values else None

    def where(history, stream):
        return f"{history:,} messages, {'streaming' if stream else 'not streaming'}"

    for stream in (True, False):
        ratio = median_ratio("hermes_cpp", 1000, stream, "cpu_per_step_us", "floor")
        if ratio is not None:
            targets.append((f"CPU per step ≤ 2× the floor's ({where(1000, stream)})",
                            fmt_ratio(ratio), verdict(ratio <= 2)))
    for stream in (True, False):
        ratio = median_ratio("hermes_py", 100, stream, "wall_per_step_us", "hermes_cpp")
        if ratio is not None:
            targets.append((f"Python per-step overhead over C++ ≤ 20% ({where(100, stream)})",
                            f"{ratio - 1:+.0%}", verdict(ratio - 1 <= 0.2)))
    for history in HISTORIES:
        for stream in (True, False):
            h_cpu = r.values("hermes_cpp", history, stream, "cpu_per_step_us")
            peers = [p for p in PEERS if r.values(p, history, stream, "cpu_per_step_us")]
            if not h_cpu or not peers:
                continue
            best = min(statistics.median(r.values(p, history, stream, "cpu_per_step_us"))
                       for p in peers)
            ratio = statistics.median(h_cpu) / best
            targets.append((f"CPU per step ≤ 1/10 of the best peer's ({where(history, stream)})",
                            fmt_share(ratio), verdict(ratio <= 0.1)))
    for stream in (True, False):
        ratio = median_ratio("hermes_cpp_store_normal", 10, stream, "wall_per_step_us",
                             "hermes_cpp")
        if ratio is not None:
            targets.append((f"Store on, durability normal, ≤ 1.5× store off ({where(10, stream)})",
                            fmt_ratio(ratio), verdict(ratio <= 1.5)))
    for l in r.many:
        per = l["peak_rss_kib"] * 1024 / l["lanes"]
        allowed = 1.5 * l["history_text_bytes"] + 64 * 1024
        done = l["steps_done"] == l["lanes"] * l["steps"]
        targets.append((f"{l['lanes']:,} concurrent conversations, RSS ≤ 1.5 × text + 64 KiB each",
                        f"{'all' if done else 'NOT all'} completed, {l['steps_per_s']:,.0f} steps/s, "
                        f"peak RSS {per / 1024:,.1f} KiB per conversation (allowed "
                        f"{allowed / 1024:,.1f} KiB), step latency p50 "
                        f"{l.get('step_latency_p50_us', 0) / 1000:,.0f} ms, p99 "
                        f"{l.get('step_latency_p99_us', 0) / 1000:,.0f} ms",
                        verdict(done and per <= allowed)))
    if not r.many:
        targets.append(("10,000 concurrent conversations, RSS ≤ 1.5 × text + 64 KiB each",
                        "not measured", "**missed**"))


def tracing_table(r, targets):
    """Tracing on with the OTLP exporter attached, against tracing off, round by round."""
    rows = ["| Prior messages | Streaming | Wall per step, traced − untraced | Share of a step "
            "| CPU per step, traced − untraced | Share of CPU |", "|---|---|---|---|---|---|"]
    for history in HISTORIES:
        for stream in (True, False):
            plain = r.values("hermes_cpp", history, stream, "wall_per_step_us")
            over = r.ratios("hermes_cpp_traced", history, stream, "wall_per_step_us",
                            other="hermes_cpp", diff=True)
            if not plain or not over:
                continue
            share = statistics.median(over) / statistics.median(plain)
            plain_cpu = r.values("hermes_cpp", history, stream, "cpu_per_step_us")
            over_cpu = r.ratios("hermes_cpp_traced", history, stream, "cpu_per_step_us",
                                other="hermes_cpp", diff=True)
            cpu_share = statistics.median(over_cpu) / statistics.median(plain_cpu)
            if history == 100:
                targets.append((f"Tracing overhead < 5% of a step at 100 messages "
                                f"({'streaming' if stream else 'not streaming'})",
                                f"{share:.1%}", verdict(share < 0.05)))
            rows.append(f"| {history:,} | {'on' if stream else 'off'} | {fmt_spread(over)} "
                        f"| {share:.1%} | {fmt_spread(over_cpu)} | {cpu_share:.1%} |")
    return "\n".join(rows)


def peer_table(r, targets):
    rows = ["| Prior messages | Streaming | Best peer (CPU) | hermes CPU / peer CPU | "
            "Best peer (wall) | hermes wall / peer wall |", "|---|---|---|---|---|---|"]
    for history in HISTORIES:
        for stream in (True, False):
            h_cpu = r.values("hermes_cpp", history, stream, "cpu_per_step_us")
            h_wall = r.values("hermes_cpp", history, stream, "wall_per_step_us")
            peers = [p for p in PEERS if r.values(p, history, stream, "cpu_per_step_us")]
            if not h_cpu or not peers:
                continue
            med = lambda p, f: statistics.median(r.values(p, history, stream, f))
            best_cpu = min(peers, key=lambda p: med(p, "cpu_per_step_us"))
            best_wall = min(peers, key=lambda p: med(p, "wall_per_step_us"))
            cpu_ratio = statistics.median(h_cpu) / med(best_cpu, "cpu_per_step_us")
            wall_ratio = statistics.median(h_wall) / med(best_wall, "wall_per_step_us")
            label = dict(CONTENDERS)
            where = f"{history:,} messages, {'streaming' if stream else 'not streaming'}"
            targets.append((f"CPU per step ≤ 1/5 of the best peer's ({where})",
                            fmt_share(cpu_ratio), verdict(cpu_ratio <= 0.2)))
            targets.append((f"Wall per step ≤ 1/2 of the best peer's ({where})",
                            fmt_share(wall_ratio), verdict(wall_ratio <= 0.5)))
            rows.append(f"| {history:,} | {'on' if stream else 'off'} | {label[best_cpu]} "
                        f"| {fmt_share(cpu_ratio)} | {label[best_wall]} | {fmt_share(wall_ratio)} |")
    return "\n".join(rows)


def memory_section(r, targets):
    if not r.idle:
        return "(not measured)"
    l = r.idle[-1]
    per_agent = l["heap_bytes_per_agent"]
    text = l["text_bytes_per_agent"]
    beyond = per_agent - text
    limit = 1.5 * text + 64 * 1024
    targets.append(("An idle agent < 64 KiB beyond its history",
                    f"{beyond / 1024:,.1f} KiB", verdict(beyond < 64 * 1024)))
    targets.append(("1,000 agents with 100-message histories < 1.5 × text + 64 KiB each",
                    f"{per_agent / 1024:,.1f} KiB vs {limit / 1024:,.1f} KiB",
                    verdict(per_agent < limit)))
    return "\n".join([
        "| Agents | Messages per agent | Text per agent | Heap per agent | Beyond the text "
        "| Heap / text | RSS per agent |",
        "|---|---|---|---|---|---|---|",
        f"| {l['agents']:,} | {l['messages_per_agent']:.0f} | {text / 1024:,.1f} KiB "
        f"| {per_agent / 1024:,.1f} KiB | {beyond / 1024:,.1f} KiB | {per_agent / text:.2f}x "
        f"| {l['rss_bytes_per_agent'] / 1024:,.1f} KiB |",
    ])


def concurrency_section(r, targets):
    floor = r.concurrent.get("floor", [])
    threads = r.concurrent.get("hermes_cpp", [])
    runtime = r.concurrent.get("hermes_cpp_runtime", [])
    if not floor or not (threads or runtime):
        return "(not measured)"
    rounds = {l["round"]: l for l in floor}

    def share_of(lines):
        ratios = [h["steps_per_s"] / rounds[h["round"]]["steps_per_s"] for h in lines
                  if h["round"] in rounds]
        return statistics.median(ratios) if ratios else None

    # The target is the runtime's (at most 4 threads of hermes' own); the thread-per-agent
    # form is reported beside it.
    share = share_of(runtime) if runtime else share_of(threads)
    targets.append(("200 concurrent conversations ≥ 90% of floor throughput (Runtime)",
                    f"{share:.0%}", verdict(share >= 0.9)))
    fmt = lambda v: f"{v:,.0f}"
    rows = [
        "| Contender | Steps/s | CPU per step | hermes / floor |",
        "|---|---|---|---|",
        f"| floor (curl multi, one thread) | {fmt_spread([l['steps_per_s'] for l in floor], fmt)} "
        f"| {fmt_spread([l['cpu_per_step_us'] for l in floor])} | |",
    ]
    for name, lines in (("hermes C++ (one thread per agent)", threads),
                        ("hermes C++ (Runtime, 2 I/O threads)", runtime)):
        if lines:
            rows.append(f"| {name} | {fmt_spread([l['steps_per_s'] for l in lines], fmt)} "
                        f"| {fmt_spread([l['cpu_per_step_us'] for l in lines])} "
                        f"| {share_of(lines):.0%} |")
    return "\n".join(rows)


def parse_section(r):
    if not r.parse:
        return "(not measured)"
    fields = [("sse_mb_s", "SSE event splitting, all recorded streams"),
              ("chat_stream_mb_s", "SSE + Chat Completions chunk assembly, chat streams"),
              ("token_estimate_mb_s", "estimate_tokens_rough, one 1,000-message text"),
              ("token_estimate_messages_mb_s", "estimate_messages_tokens_rough, 1,000 messages")]
    rows = ["| What | MB/s of CPU time |", "|---|---|"]
    for key, label in fields:
        rows.append(f"| {label} | {fmt_spread([l[key] for l in r.parse], lambda v: f'{v:,.0f}')} |")
    return "\n".join(rows)


def section(r, meta):
    targets = []
    parts = [START, "", "## Agent loop (`benchmarks/agent`, `benchmarks/peers`)", ""]
    parts.append(INTRO.strip())
    parts += ["", "### Machine and versions", "", meta["machine"].strip(), ""]
    for stream in (True, False):
        parts += [f"### Per step, streaming {'on' if stream else 'off'}", "",
                  per_step_table(r, stream), ""]
    parts += ["### hermes overhead over the floor", "", overhead_table(r, targets), ""]
    engine_targets(r, targets)
    parts += ["### Tracing overhead (spans and metrics exported over OTLP/HTTP)", "",
              tracing_table(r, targets), ""]
    parts += ["### hermes C++ against the best peer", "", peer_table(r, targets), ""]
    parts += ["### Memory: 1,000 idle agents", "", memory_section(r, targets), ""]
    parts += ["### 200 concurrent conversations in one process", "",
              concurrency_section(r, targets), ""]
    parts += ["### Parsers", "", parse_section(r), ""]
    parts += ["### Session store", "",
              "The store's own figures (append against raw SQLite inserts, search over a "
              "million messages, resume of a 10,000-message session) are in "
              "[Session store](#session-store-benchmarksstore) above; here the store shows "
              "as the difference between the store-on and store-off rows.", ""]
    parts += ["### Targets", "", "| Target | Measured | |", "|---|---|---|"]
    parts += [f"| {name} | {value} | {mark} |" for name, value, mark in targets]
    parts += ["", END]
    return "\n".join(parts).replace("\n\n\n", "\n\n") + "\n"


def main():
    results, meta_path, readme = sys.argv[1:4]
    with open(meta_path) as f:
        meta = json.load(f)
    text = section(Results(load(results)), meta)
    with open(readme) as f:
        current = f.read()
    if START in current and END in current:
        before = current[:current.index(START)]
        after = current[current.index(END) + len(END):].lstrip("\n")
        current = before + text + ("\n" + after if after else "")
    else:
        current = current.rstrip("\n") + "\n\n" + text
    with open(readme, "w") as f:
        f.write(current)
    print(text)


if __name__ == "__main__":
    main()
