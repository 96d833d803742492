// The Vercel AI SDK (ai + @ai-sdk/openai-compatible) as a contender of the agent
// benchmark: multi-step tool calling with generateText / streamText.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';

import { ADD_DESCRIPTION, conversationUrl, fail, measure, readWorkload } from './common.mjs';

const workload = readWorkload();

const add = tool({
  description: ADD_DESCRIPTION,
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => ({ sum: a + b }),
});

// The OpenAI chat history in the SDK's message form.
function toModelMessages(history) {
  const names = new Map();
  return history.map((m) => {
    if (m.role === 'assistant' && m.tool_calls) {
      return {
        role: 'assistant',
        content: m.tool_calls.map((c) => {
          names.set(c.id, c.function.name);
          return {
            type: 'tool-call',
            toolCallId: c.id,
            toolName: c.function.name,
            input: JSON.parse(c.function.arguments),
          };
        }),
      };
    }
    if (m.role === 'tool') {
      return {
        role: 'tool',
        content: [{
          type: 'tool-result',
          toolCallId: m.tool_call_id,
          toolName: names.get(m.tool_call_id),
          output: { type: 'text', value: m.content },
        }],
      };
    }
    return { role: m.role, content: m.content };
  });
}

const history = toModelMessages(workload.history);

async function conversation() {
  const provider = createOpenAICompatible({
    name: 'mock',
    baseURL: conversationUrl(workload, 'vercel'),
    apiKey: 'sk-bench',
  });
  const request = {
    model: provider.chatModel('bench-model'),
    messages: [...history, { role: 'user', content: workload.opening }],
    tools: { add },
    stopWhen: stepCountIs(workload.steps + 1),
    maxRetries: 0,
  };
  let steps;
  if (workload.stream) {
    const result = streamText(request);
    for await (const _ of result.fullStream) { /* consume the stream */ }
    steps = (await result.steps).length;
  } else {
    steps = (await generateText(request)).steps.length;
  }
  if (steps !== workload.steps) fail(`vercel_ai: ${steps} model calls, expected ${workload.steps}`);
}

await measure(workload, 'vercel_ai', conversation);
