import { Effect, type Scope } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface FakeReply {
  readonly status?: number
  readonly headers?: Record<string, string>
  readonly body?: string | Uint8Array
  /** Milliseconds to wait before answering. */
  readonly delay?: number
}

export type FakeRoute = (request: IncomingMessage, url: URL) => FakeReply | undefined | Promise<FakeReply | undefined>

export interface FakeUpstream {
  readonly url: string
  /** Requests seen, by path (without query). */
  readonly hits: Map<string, number>
  readonly requests: Array<
    { readonly method: string; readonly url: string; readonly headers: IncomingMessage["headers"] }
  >
  /** `down`: every request fails with the given status, or the socket is destroyed when `"reset"`. */
  down: number | "reset" | undefined
  readonly route: (handler: FakeRoute) => void
  readonly close: () => Promise<void>
}

/** A loopback HTTP server standing in for an upstream API; routes are tried newest first. */
export const startFakeUpstream = async (routes: ReadonlyArray<FakeRoute> = []): Promise<FakeUpstream> => {
  const handlers = [...routes]
  const fake: Omit<FakeUpstream, "url" | "close"> = {
    hits: new Map(),
    requests: [],
    down: undefined,
    route: (handler) => {
      handlers.unshift(handler)
    }
  }
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://fake")
    fake.hits.set(url.pathname, (fake.hits.get(url.pathname) ?? 0) + 1)
    fake.requests.push({ method: request.method ?? "GET", url: request.url ?? "/", headers: request.headers })
    if (fake.down === "reset") return void request.socket.destroy()
    if (fake.down !== undefined) return void response.writeHead(fake.down).end("unavailable")
    for (const handler of handlers) {
      const reply = await handler(request, url)
      if (reply === undefined) continue
      if (reply.delay) await new Promise((resolve) => setTimeout(resolve, reply.delay))
      response.writeHead(reply.status ?? 200, reply.headers ?? {}).end(reply.body ?? "")
      return
    }
    response.writeHead(404, { "content-type": "application/json" }).end("{\"error\":\"not found\"}")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(fake as FakeUpstream, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  })
}

export const json = (value: unknown, status = 200): FakeReply => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value)
})

/** `startFakeUpstream` for the scope of an effect (a suite layer or an `it.scoped` test), closed with it. */
export const fakeUpstream = (routes: ReadonlyArray<FakeRoute> = []): Effect.Effect<FakeUpstream, never, Scope.Scope> =>
  Effect.acquireRelease(Effect.promise(() => startFakeUpstream(routes)), (fake) => Effect.promise(() => fake.close()))
