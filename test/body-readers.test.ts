import { HttpLayerRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { connect } from "node:net"
import { BodyReader, portableBodyReader, readText } from "../src/http/Body.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

const Limit = 64

/** What each read ended with, in order, for the abort test (the client never sees it). */
const outcomes: Array<string> = []

/** Answers what `readText` made of the body: the text, or the error as the surfaces map it. */
const echo = (reader: "served" | "portable") => {
  const read = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => readText(request, Limit))
  const withReader = reader === "served" ? read : Effect.provideService(read, BodyReader, portableBodyReader)
  return withReader.pipe(
    Effect.onExit((exit) =>
      Effect.sync(() => {
        outcomes.push(
          Exit.isSuccess(exit)
            ? "read"
            : Cause.isInterruptedOnly(exit.cause)
            ? "interrupted"
            : Cause.pretty(exit.cause).includes("could not be read")
            ? "unreadable"
            : "other"
        )
      })
    ),
    Effect.match({
      onFailure: (error) =>
        error._tag === "BodyTooLarge"
          ? HttpServerResponse.text("too large", { status: 413, headers: { connection: "close" } })
          : HttpServerResponse.text(error.reason, { status: 400 }),
      onSuccess: (text) => HttpServerResponse.text(`read ${text.length}: ${text}`)
    })
  )
}

const routes = HttpLayerRouter.addAll([
  HttpLayerRouter.route("POST", "/served", echo("served")),
  HttpLayerRouter.route("POST", "/portable", echo("portable")),
  HttpLayerRouter.route(
    "GET",
    "/reader",
    Effect.map(BodyReader, (reader) => HttpServerResponse.text(reader === portableBodyReader ? "portable" : "own"))
  )
])

/** `count` chunks of `size` spaces without Content-Length (Transfer-Encoding: chunked). */
const chunked = (count: number, size: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < count; i++) controller.enqueue(new Uint8Array(size).fill(32))
      controller.close()
    }
  })

/** Sends a request head and part of a declared body, then drops the connection. */
const abortMidBody = (url: string, path: string) =>
  new Promise<void>((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname, () => {
      socket.write(`POST ${path} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-length: 50\r\n\r\n0123456789`)
      setTimeout(() => socket.destroy(), 50)
    })
    socket.on("error", reject)
    socket.on("close", () => resolve())
  })

describe("request bodies read within a limit, by the Node server's reader (/served) and the portable one", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ app: routes })
  })
  afterAll(() => server.close())

  const post = (path: string, body: BodyInit | undefined, headers: Record<string, string> = {}) =>
    server.get(path, { method: "POST", body, headers, duplex: "half" } as RequestInit)

  it("the Node server provides its own reader", async () => {
    expect(await (await server.get("/reader")).text()).toBe("own")
  })

  for (const path of ["/served", "/portable"]) {
    describe(path, () => {
      it("reads a body with Content-Length within the limit, and an empty one", async () => {
        const response = await post(path, "héllo")
        expect(await response.text()).toBe("read 5: héllo")
        expect(await (await post(path, "")).text()).toBe("read 0: ")
        expect(await (await post(path, "x".repeat(Limit))).text()).toBe(`read ${Limit}: ${"x".repeat(Limit)}`)
      })

      it("refuses a Content-Length over the limit with 413 before reading", async () => {
        const response = await post(path, "x".repeat(Limit + 1))
        expect(response.status).toBe(413)
        expect(response.headers.get("connection")).toBe("close")
      })

      it("reads a chunked body within the limit", async () => {
        expect(await (await post(path, chunked(4, 16))).text()).toBe(`read 64: ${" ".repeat(64)}`)
      })

      it("answers a chunked body over the limit with 413, not a connection reset", async () => {
        const response = await post(path, chunked(40, 1024))
        expect(response.status).toBe(413)
        expect(response.headers.get("connection")).toBe("close")
        expect(await response.text()).toBe("too large")
      })

      it("refuses a body that is not UTF-8", async () => {
        const response = await post(path, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))
        expect(response.status).toBe(400)
        expect(await response.text()).toBe("is not valid UTF-8")
      })

      it("survives a client that leaves mid-body, and serves the next request", async () => {
        outcomes.length = 0
        await abortMidBody(server.url, path)
        await expect.poll(() => outcomes.length).toBe(1)
        expect(["interrupted", "unreadable"]).toContain(outcomes[0])
        expect(await (await post(path, "after")).text()).toBe("read 5: after")
      })
    })
  }
})

describe("the portable reader on a web request (the Deno entry's runtime)", () => {
  const { dispose, handler } = HttpLayerRouter.toWebHandler(routes.pipe(Layer.provide(Layer.empty)), {
    disableLogger: true
  })
  afterAll(() => dispose())

  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    handler(new Request("http://local/served", { method: "POST", body, headers, duplex: "half" } as RequestInit))

  it("reads within the limit, and refuses over it by Content-Length or chunk by chunk", async () => {
    expect(await (await post("héllo", { "content-length": "6" })).text()).toBe("read 5: héllo")
    expect((await post("x".repeat(Limit + 1), { "content-length": String(Limit + 1) })).status).toBe(413)
    expect(await (await post(chunked(4, 16))).text()).toBe(`read 64: ${" ".repeat(64)}`)
    expect((await post(chunked(40, 1024))).status).toBe(413)
  })

  it("reads with the portable reader, and refuses a body that is not UTF-8", async () => {
    expect(await (await handler(new Request("http://local/reader"))).text()).toBe("portable")
    const response = await post(new Uint8Array([0xff]), { "content-length": "1" })
    expect(await response.text()).toBe("is not valid UTF-8")
  })
})
