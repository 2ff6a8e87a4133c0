import { spawnSync } from "node:child_process"

/**
 * `npm run bench -- agent-tasks`: issue 20's five compliance tasks as scripted MCP conversations
 * (SDK client, API key; `test/support/AgentTasks.ts`), with the characters an agent reads for
 * each beside the issue's before-numbers. The conversations run under vitest, because their
 * server uses the test store (an in-memory PGlite built by the test setup); this reads the line
 * each task prints.
 */
export const run = async () => {
  const vitest = spawnSync("npx", ["vitest", "run", "test/mcp/agent-tasks.test.ts"], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024
  })
  const output = `${vitest.stdout}\n${vitest.stderr}`
  if (vitest.status !== 0) throw new Error(`the agent-task conversations failed:\n${output.slice(-4_000)}`)
  const tasks = [...output.matchAll(/agent task: (.+): (\d+) characters in (\d+) calls \(before (\d+)\)/g)].map((
    [, task, chars, calls, before]
  ) => ({ task: task!, calls: Number(calls), charsRead: Number(chars), before: Number(before) }))
  const catalogue = /agent catalogue: (\d+) characters/.exec(output)
  console.table(tasks)
  return { toolsListChars: catalogue === null ? null : Number(catalogue[1]), tasks }
}
