import { Effect, Either, Stream } from "effect"
import type { Principal } from "../domain/Principal.ts"
import { ErrorCode, RpcError } from "./JsonRpc.ts"
import * as Server from "./Server.ts"

/** The same bound as the HTTP endpoint's body: room for a 1 MB document payload and its envelope. */
export const MaxMessageBytes = 2 * 1024 * 1024

/** Requests answered at once; replies go out as they complete (clients match them by id). */
const concurrency = 8

const decoder = new TextDecoder()

const tooLarge = new RpcError(ErrorCode.InvalidRequest, `Message exceeds ${MaxMessageBytes} bytes`, 413)

/**
 * The MCP stdio transport: one JSON-RPC message per line in, one per line out, through the same
 * server as `POST /mcp`. The connection has one principal, fixed when it starts; there are no
 * headers, so a 2026-07-28 request is validated by its `_meta` alone.
 */
export const serveLines = <E, R>(
  options: Server.ServerOptions,
  principal: Principal,
  lines: Stream.Stream<string, E, R>,
  write: (line: string) => Effect.Effect<void>
): Effect.Effect<void, E, R> =>
  lines.pipe(
    Stream.filter((line) => line.trim() !== ""),
    Stream.mapEffect(
      (line) =>
        Buffer.byteLength(line) > MaxMessageBytes
          ? Effect.succeed(Server.failure(null, tooLarge))
          : Server.handle(options, { body: line, headers: undefined, principal: Either.right(principal) }),
      { concurrency, unordered: true }
    ),
    Stream.runForEach((reply) =>
      reply.body === undefined
        ? Effect.void
        : write(typeof reply.body === "string" ? reply.body : decoder.decode(reply.body))
    )
  )
