import { HttpLayerRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { Buffer } from "node:buffer"
import { CourtTokenHeader as CourtTokenHeaderName } from "../../domain/CourtRecords.ts"
import type { BodyTooLarge, MalformedBody } from "../../domain/JsonBody.ts"
import { CurrentPrincipal, UnverifiedCredential } from "../../domain/Principal.ts"
import { McpCatalog } from "../../mcp/Catalog.ts"
import { ErrorCode, RpcError, unparsable } from "../../mcp/JsonRpc.ts"
import * as Server from "../../mcp/Server.ts"
import { CourtTokenHeader } from "../../mcp/tools/CourtRecords.ts"
import { AppConfig } from "../../services/AppConfig.ts"
import { readText } from "../Body.ts"
import { rawRoute, type RouteDescriptor } from "../RouteCatalog.ts"
import { DeprecatedMcpPath, McpPath, ProtectedResourceMetadataPath } from "./Api.ts"

/** Room for the largest tool arguments (1 MB document payloads) plus the JSON-RPC envelope. */
export const MaxBodyBytes = 2 * 1024 * 1024

export const mcpRoutes: ReadonlyArray<RouteDescriptor> = [
  rawRoute({
    method: "POST",
    path: McpPath,
    group: "mcp",
    summary: "MCP server (JSON-RPC 2.0, streamable HTTP, stateless): protocol 2026-07-28, 2025-11-25, 2025-06-18"
  }),
  rawRoute({ method: "POST", path: DeprecatedMcpPath, group: "mcp", summary: "deprecated alias of POST /mcp" })
]

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

const hostnameOf = (value: string): string | undefined => {
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname.toLowerCase()
  } catch {
    return undefined
  }
}

/** Distinct header values whose verdict is remembered: a client varying them gets no more than this. */
const MaxRememberedValues = 64

/**
 * DNS-rebinding protection (MCP transport security): a browser tricked into posting here carries the
 * attacker's host name in `Host` and `Origin`. Only the public host name and loopback names pass.
 * The verdict is a pure function of the header value, and clients send the same few values on every
 * call: parsing them as a URL each time was a visible share of a tools/call.
 */
const originCheck = (allowed: ReadonlySet<string>) => {
  const verdicts = new Map<string, boolean>()
  const allows = (value: string): boolean => {
    const known = verdicts.get(value)
    if (known !== undefined) return known
    const hostname = hostnameOf(value)
    const verdict = hostname !== undefined && allowed.has(hostname)
    if (verdicts.size < MaxRememberedValues) verdicts.set(value, verdict)
    return verdict
  }
  return (headers: Readonly<Record<string, string | undefined>>): boolean => {
    const origin = headers["origin"]
    if (origin !== undefined && origin !== "null" && !allows(origin)) return true
    const host = headers["host"]
    return host !== undefined && !allows(host)
  }
}

// the reply text goes to the runtime as a string with its byte length: Node writes it to the socket
// in one native step, where `text` first encodes it into a new buffer (the result carries its JSON
// twice); a reply already in bytes goes as it is
const json = (reply: Server.Reply, extraHeaders: Record<string, string>) => {
  const headers = { ...extraHeaders, ...reply.headers }
  return reply.body === undefined
    ? HttpServerResponse.empty({ status: reply.status, headers })
    : HttpServerResponse.raw(reply.body, {
      status: reply.status,
      contentType: "application/json",
      contentLength: typeof reply.body === "string" ? Buffer.byteLength(reply.body) : reply.body.byteLength,
      headers
    })
}

/** The unread rest of the body stays on the socket, so the connection is closed after the answer. */
const tooLarge = new RpcError(ErrorCode.InvalidRequest, `Request body exceeds ${MaxBodyBytes} bytes`, 413, undefined, {
  connection: "close"
})

const unreadable = (error: BodyTooLarge | MalformedBody): Server.Reply =>
  Server.failure(null, error._tag === "BodyTooLarge" ? tooLarge : unparsable(error))

/** `POST /mcp` and its deprecated alias `POST /mcp/pro`. */
export const McpRoutesLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  const catalog = yield* McpCatalog
  const base = config.publicBaseUrl
  const options: Server.ServerOptions = {
    catalog,
    challenge: { resourceMetadataUrl: `${base}${ProtectedResourceMetadataPath}` },
    baseUrl: base
  }
  const rejectsOrigin = originCheck(
    new Set([...loopbackHosts, ...Option.toArray(Option.fromNullable(hostnameOf(base)))])
  )
  const deprecation = { deprecation: "true", link: `<${base}${McpPath}>; rel="successor-version"` }

  const forbidden = new RpcError(ErrorCode.InvalidRequest, "Forbidden: Origin or Host is not allowed", 403)

  // plain combinators, not a generator: this runs on every MCP request. The request, its caller
  // and whether the caller's credential could be checked are read from the context in one step
  const handle = (extraHeaders: Record<string, string>) =>
    Effect.contextWithEffect((
      context: Context.Context<HttpServerRequest.HttpServerRequest | CurrentPrincipal>
    ) => {
      const request = Context.get(context, HttpServerRequest.HttpServerRequest)
      const headers = request.headers
      if (rejectsOrigin(headers)) {
        return Effect.succeed(json(Server.failure(null, forbidden), extraHeaders))
      }
      const unverified = Context.getOption(context, UnverifiedCredential)
      const principal = Option.isSome(unverified)
        ? Either.left(unverified.value)
        : Either.right(Context.get(context, CurrentPrincipal))
      return readText(request, MaxBodyBytes).pipe(
        Effect.matchEffect({
          onFailure: (error) => Effect.succeed(unreadable(error)),
          onSuccess: (body) => {
            const handled = Server.handle(options, { body, headers, principal })
            const courtToken = headers[CourtTokenHeaderName]
            // the caller's own CourtListener token, for the court-records tools of this request only
            return courtToken === undefined || courtToken === ""
              ? handled
              : Effect.provideService(handled, CourtTokenHeader, Redacted.make(courtToken))
          }
        }),
        Effect.map((reply) => json(reply, extraHeaders))
      )
    })

  return HttpLayerRouter.addAll([
    HttpLayerRouter.route("POST", McpPath, handle({})),
    HttpLayerRouter.route("POST", DeprecatedMcpPath, handle(deprecation))
  ])
}))
