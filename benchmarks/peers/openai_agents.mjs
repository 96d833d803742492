// The OpenAI Agents SDK (@openai/agents) as a contender of the agent benchmark: an Agent
// with a Chat Completions model pointed at the mock server, run to its final output.
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';

import { ADD_DESCRIPTION, conversationUrl, fail, measure, readWorkload } from './common.mjs';

setTracingDisabled(true);
const workload = readWorkload();

const add = tool({
  name: 'add',
  description: ADD_DESCRIPTION,
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => JSON.stringify({ sum: a + b }),
});

// The OpenAI chat history in the SDK's input item form.
function toInputItems(history) {
  const items = [];
  for (const m of history) {
    if (m.role === 'assistant' && m.tool_calls) {
      for (const c of m.tool_calls) {
        items.push({
          type: 'function_call',
          callId: c.id,
          name: c.function.name,
          arguments: c.function.arguments,
          status: 'completed',
        });
      }
    } else if (m.role === 'tool') {
      items.push({
        type: 'function_call_result',
        callId: m.tool_call_id,
        name: 'read_file',
        status: 'completed',
        output: m.content,
      });
    } else if (m.role === 'assistant') {
      items.push({
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: m.content }],
      });
    } else {
      items.push({ role: m.role, content: m.content });
    }
  }
  return items;
}

const history = toInputItems(workload.history);

async function conversation() {
  const client = new OpenAI({
    baseURL: conversationUrl(workload, 'agents'),
    apiKey: 'sk-bench',
    maxRetries: 0,
  });
  const agent = new Agent({
    name: 'bench',
    instructions: 'You are a helpful assistant.',
    model: new OpenAIChatCompletionsModel(client, 'bench-model'),
    tools: [add],
  });
  const input = [...history, { role: 'user', content: workload.opening }];
  const options = { maxTurns: workload.steps + 1 };
  let result;
  if (workload.stream) {
    result = await run(agent, input, { ...options, stream: true });
    for await (const _ of result) { /* consume the stream */ }
    await result.completed;
  } else {
    result = await run(agent, input, options);
  }
  const calls = result.rawResponses.length;
  if (calls !== workload.steps) fail(`openai_agents: ${calls} model calls, expected ${workload.steps}`);
}

await measure(workload, 'openai_agents', conversation);
