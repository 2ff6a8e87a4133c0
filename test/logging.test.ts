import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { type RunningServer, startServer } from "./support/TestServer.ts"

describe("access log", () => {
  let server: RunningServer
  const lines: Array<string> = []
  beforeAll(async () => {
    vi.spyOn(console, "log").mockImplementation((text: unknown) => {
      lines.push(...String(text).split("\n"))
    })
    server = await startServer({ config: { logLevel: "info" } })
  })
  afterAll(async () => {
    await server.close()
    vi.restoreAllMocks()
  })

  it("writes one JSON line per request with the route template, never the query string or credentials", async () => {
    const secret = "Ivan Secretparty"
    const ok = await server.get(`/api/regulatory-status?name=${encodeURIComponent(secret)}`, {
      headers: { authorization: "Bearer svc_live_do_not_log_me" }
    })
    const missing = await server.get(`/api/csl-nope/${encodeURIComponent(secret)}?name=${encodeURIComponent(secret)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))

    const records = lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
    const requests = records.filter((record) => record.msg === "request")
    const find = (id: string | null) => requests.find((record) => record.requestId === id)
    expect(find(ok.headers.get("x-request-id"))).toMatchObject({
      level: "INFO",
      method: "GET",
      route: "/api/regulatory-status",
      status: 200,
      durationMs: expect.any(Number)
    })
    expect(find(missing.headers.get("x-request-id"))).toMatchObject({ route: "(unmatched)", status: 404 })
    const everything = lines.join("\n")
    expect(everything).not.toContain("Secretparty")
    expect(everything).not.toContain("do_not_log_me")
  })
})
