import { describe, expect, it } from "@effect/vitest"
import { connect, type Socket } from "node:net"
import { startServer } from "./support/TestServer.ts"

const openSocket = (url: string): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname, () => resolve(socket))
    socket.on("error", reject)
  })

const closed = (socket: Socket): Promise<void> => new Promise((resolve) => socket.once("close", () => resolve()))

describe("server shutdown", () => {
  it("closes although a client left a request half sent, and a keep-alive connection idle", async () => {
    const server = await startServer()
    // a finished request on a keep-alive connection: idle, kept open for 65 s by the server
    const idle = await openSocket(server.url)
    const idleClosed = closed(idle)
    await new Promise<void>((resolve) => {
      idle.once("data", () => resolve())
      idle.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n")
    })
    // a request whose body never arrives: busy until the request timeout (REQUEST_TIMEOUT_SECONDS)
    const busy = await openSocket(server.url)
    const busyClosed = closed(busy)
    busy.write(
      "POST /oauth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    await server.close()
    await Promise.all([idleClosed, busyClosed])
    expect(idle.destroyed && busy.destroyed).toBe(true)
  }, 45_000)
})
