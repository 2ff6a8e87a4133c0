import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { agentSession, agentTasks, startAgentTaskServer } from "../support/AgentTasks.ts"
import type { RunningServer } from "../support/TestServer.ts"

/**
 * Issue 20's five tasks as scripted SDK conversations: each answer is checked, and the characters
 * read stay under a ceiling far below the sizes the issue measured (bench/agent-tasks.ts prints them).
 */
describe("agent tasks over MCP", () => {
  let server: RunningServer
  let close: () => Promise<void>
  let agent: Awaited<ReturnType<typeof agentSession>>
  beforeAll(async () => {
    ;({ close, server } = await startAgentTaskServer())
    agent = await agentSession(server)
  }, 120_000)
  afterAll(async () => {
    await agent?.close()
    await close?.()
  })

  it("lists the catalogue within its budget", () => {
    console.log(`agent catalogue: ${agent.catalogue} characters`)
    expect(agent.catalogue).toBeLessThanOrEqual(30_000)
  })

  it.each(agentTasks.map((task) => [task.name, task] as const))("%s", async (_name, task) => {
    const session = agent.session()
    await task.run(session)
    console.log(
      `agent task: ${task.name}: ${session.chars()} characters in ${session.calls()} calls (before ${task.before})`
    )
    expect(session.chars()).toBeLessThanOrEqual(task.ceiling)
  })
})
