import { describe, expect, it } from "@effect/vitest"
import { connect } from "node:net"
import { startServer } from "./support/TestServer.ts"

/**
 * What a client sending its request too slowly gets: `408` and a closed connection once
 * `REQUEST_TIMEOUT_SECONDS` has passed (Node's own default keeps such a connection five minutes).
 */
const trickle = (url: string, head: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    let answer = ""
    const socket = connect(Number(port), hostname, () => socket.write(head))
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => (answer += chunk))
    socket.on("error", reject)
    socket.on("close", () => resolve(answer))
  })

describe("request timeout", () => {
  it("answers 408 and closes a connection whose body never arrives", async () => {
    const server = await startServer({ config: { requestTimeoutSeconds: 1 } })
    try {
      const answer = await trickle(
        server.url,
        "POST /oauth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
      )
      expect(answer).toMatch(/^HTTP\/1\.1 408 /)
      // a request sent in time on a new connection is still served
      expect((await server.get("/health")).status).toBe(200)
    } finally {
      await server.close()
    }
  }, 20_000)

  it("also closes a connection whose headers never end", async () => {
    const server = await startServer({ config: { requestTimeoutSeconds: 1 } })
    try {
      expect(await trickle(server.url, "GET /health HTTP/1.1\r\nHost: x\r\n")).toMatch(/^HTTP\/1\.1 408 /)
    } finally {
      await server.close()
    }
  }, 20_000)
})
