import { HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Cause, Context, Effect, FiberId, Runtime, Stream } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { ResponseDelivery, type ResponseDeliveryShape } from "../Delivery.ts"
import { NodeRequest } from "./NodeRequest.ts"

const clientAbort = FiberId.runtime(-499, 0)

const headerList = (headers: Readonly<Record<string, string>>): Array<string> => {
  const list: Array<string> = []
  for (const name in headers) list.push(name, headers[name]!)
  return list
}

const toNodeReadable = (body: HttpServerResponse.HttpServerResponse["body"]) =>
  body._tag === "Stream"
    ? Effect.map(Stream.toReadableStreamEffect(body.stream), (stream) => Readable.fromWeb(stream as any))
    : Effect.succeed(
      body._tag === "Raw" && body.body instanceof ReadableStream
        ? Readable.fromWeb(body.body as any)
        : (body as { readonly body: Readable }).body
    )

/**
 * `finish` is emitted once the last byte is handed to the operating system, but Node emits it too
 * when the connection was destroyed with the write pending (the client left mid-body); only a
 * connection still open at `finish` took the bytes. A `close` without `finish` means the client left
 * first. Listeners are attached only when a handler asks.
 */
const deliveryOf = (res: ServerResponse, socket: Socket): ResponseDeliveryShape => ({
  delivered: Effect.async<boolean>((resume) => {
    // asked after the fact: in doubt (the connection is gone) the document is not charged
    if (res.writableFinished) return resume(Effect.succeed(!socket.destroyed))
    if (res.destroyed || res.closed) return resume(Effect.succeed(false))
    const settle = () => {
      res.off("finish", settle)
      res.off("close", settle)
      resume(Effect.succeed(res.writableFinished && !socket.destroyed && socket.writableLength === 0))
    }
    res.prependOnceListener("finish", settle)
    res.once("close", settle)
    return Effect.sync(() => {
      res.off("finish", settle)
      res.off("close", settle)
    })
  })
})

const writeResponse = (
  req: IncomingMessage,
  res: ServerResponse,
  response: HttpServerResponse.HttpServerResponse
): Effect.Effect<void> => {
  if (res.writableEnded) return Effect.void
  res.writeHead(response.status, headerList(response.headers))
  const body = response.body
  if (req.method === "HEAD" || body._tag === "Empty" || body._tag === "FormData") {
    res.end()
    return Effect.void
  }
  if (body._tag === "Uint8Array") {
    res.end(Buffer.from(body.body.buffer, body.body.byteOffset, body.body.byteLength))
    return Effect.void
  }
  if (body._tag === "Raw" && (typeof body.body === "string" || body.body instanceof Uint8Array)) {
    res.end(body.body)
    return Effect.void
  }
  return Effect.flatMap(
    toNodeReadable(body),
    (readable) => Effect.promise(() => pipeline(readable, res).catch(() => res.destroy()))
  )
}

/**
 * A Node `request` listener running an HttpApp: one fiber per request, started from a
 * per-request runtime whose context already holds the request, and the response
 * written straight from that fiber. NodeHttpServer's generic dispatch (tracer span, pre-response
 * hooks, `provideService` per request) costs several times a raw node:http server; this keeps
 * the hot path close to it. The app is the same router that the Deno entry serves.
 */
export const make = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>
) =>
  Effect.map(
    Effect.runtime<Exclude<R, HttpServerRequest.HttpServerRequest>>(),
    (runtime) => {
      const base = runtime.context as Context.Context<never>
      return (req: IncomingMessage, res: ServerResponse) => {
        const context = Context.add(
          Context.add(base, HttpServerRequest.HttpServerRequest, new NodeRequest(req)),
          ResponseDelivery,
          deliveryOf(res, req.socket)
        )
        const program = app.pipe(
          Effect.flatMap((response) => writeResponse(req, res, response)),
          Effect.catchAllCause((cause) =>
            Cause.isInterruptedOnly(cause) ? Effect.void : Effect.zipRight(
              Effect.logError("response could not be produced", cause),
              Effect.sync(() => {
                if (res.headersSent) res.destroy()
                else res.writeHead(500, { "content-type": "text/plain" }).end("Internal error")
              })
            )
          )
        ) as Effect.Effect<void>
        const fiber = Runtime.runFork(Runtime.make({ ...runtime, context }))(program)
        res.on("close", () => {
          if (!res.writableEnded) fiber.unsafeInterruptAsFork(clientAbort)
        })
      }
    }
  )
