// What the peer contenders share: the command line, the workload files, the measured
// loop and its JSON line (the same keys as bench_agent's).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

export function readWorkload() {
  const { values } = parseArgs({
    options: {
      server: { type: 'string' },
      history: { type: 'string' },
      opening: { type: 'string' },
      steps: { type: 'string', default: '8' },
      stream: { type: 'string', default: '1' },
      conversations: { type: 'string', default: '10' },
      runs: { type: 'string', default: '1' },
    },
  });
  return {
    server: values.server,
    history: JSON.parse(readFileSync(values.history, 'utf8')),
    opening: JSON.parse(readFileSync(values.opening, 'utf8')),
    steps: Number(values.steps),
    stream: values.stream === '1',
    conversations: Number(values.conversations),
    runs: Number(values.runs),
  };
}

let conversationCount = 0;

// A mock server URL no other conversation uses: each conversation walks the script alone.
export function conversationUrl(workload, name) {
  return `${workload.server}/c/${name}-${process.pid}-${conversationCount++}/v1`;
}

export async function measure(workload, name, conversation) {
  await conversation(); // Warm-up: module loading, JIT, connections.
  for (let run = 0; run < workload.runs; run++) {
    const wallStart = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    for (let c = 0; c < workload.conversations; c++) await conversation();
    const wall = Number(process.hrtime.bigint() - wallStart) / 1e3;
    const cpu = process.cpuUsage(cpuStart);
    const steps = workload.conversations * workload.steps;
    console.log(JSON.stringify({
      contender: name,
      history: workload.history.length,
      stream: workload.stream,
      steps: workload.steps,
      steps_done: steps,
      wall_per_step_us: wall / steps,
      cpu_per_step_us: (cpu.user + cpu.system) / steps,
      steps_per_s: steps / (wall / 1e6),
      peak_rss_kib: process.resourceUsage().maxRSS,
    }));
  }
}

export function fail(message) {
  console.error(message);
  process.exit(1);
}

export const ADD_DESCRIPTION = 'Add two numbers and return their sum.';
