import type { HttpServerRequest } from "@effect/platform"
import { HttpLayerRouter, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Schema } from "effect"
import type { BodyTooLarge, MalformedBody } from "../../domain/JsonBody.ts"
import { AuthorizationServerMetadata, type OAuthErrorCode, OAuthPaths } from "../../domain/OAuth.ts"
import { AppConfig } from "../../services/AppConfig.ts"
import type { OAuthFailure } from "../../services/oauth/OAuthFailure.ts"
import { waitText } from "../../services/oauth/SignIns.ts"
import { type OAuthLimited, OAuthLimits } from "../../services/OAuthLimits.ts"
import { OAuthServer } from "../../services/OAuthServer.ts"
import { readJson, readText } from "../Body.ts"
import { weakEtag } from "../middleware/Caching.ts"
import { clientAddressOf } from "../middleware/RateLimit.ts"
import { rawRoute, type RouteDescriptor } from "../RouteCatalog.ts"
import { consentPage, errorPage } from "./ConsentPage.ts"

/**
 * The OAuth 2.1 authorization server, served by this program under `/oauth/*` plus the RFC 8414
 * metadata document. These are raw routes: OAuth clients expect RFC 6749 error bodies and form
 * posts, not the REST surface's problem documents.
 */
export const oauthRoutes: ReadonlyArray<RouteDescriptor> = [
  rawRoute({
    method: "GET",
    path: OAuthPaths.metadata,
    group: "mcp",
    summary: "OAuth 2.1 authorization server metadata (RFC 8414)",
    cachePolicy: "data"
  }),
  rawRoute({
    method: "POST",
    path: OAuthPaths.register,
    group: "mcp",
    summary: "OAuth dynamic client registration (RFC 7591)"
  }),
  rawRoute({ method: "GET", path: OAuthPaths.authorize, group: undefined, summary: "OAuth sign-in and consent page" }),
  rawRoute({
    method: "POST",
    path: OAuthPaths.authorize,
    group: undefined,
    summary: "OAuth sign-in and consent decision"
  }),
  rawRoute({ method: "POST", path: OAuthPaths.token, group: undefined, summary: "OAuth token endpoint" }),
  rawRoute({ method: "POST", path: OAuthPaths.revoke, group: undefined, summary: "OAuth token revocation (RFC 7009)" }),
  ...[OAuthPaths.metadata, OAuthPaths.register, OAuthPaths.token, OAuthPaths.revoke].map((path) =>
    rawRoute({ method: "OPTIONS", path, group: undefined, summary: "CORS preflight" })
  )
]

const maxBodyBytes = 16 * 1024

/** OAuth endpoints carry no cookies, so browser-based clients may call them from any origin. */
const cors = { "access-control-allow-origin": "*" }

const noStore = { "cache-control": "no-store", pragma: "no-cache" }

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers: { ...noStore, ...cors, ...headers } })

const oauthError = (failure: OAuthFailure) =>
  json(
    { error: failure.error, error_description: failure.description },
    failure.status,
    failure.status === 401
      ? { "www-authenticate": "Basic realm=\"oauth\"" }
      : failure.status === 503
      ? { "retry-after": "5" }
      : {}
  )

const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(body, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: {
      ...headers,
      ...noStore,
      "x-frame-options": "DENY",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      "referrer-policy": "no-referrer"
    }
  })

const redirect = (location: string, status: 302 | 303) =>
  HttpServerResponse.empty({ status, headers: { location, ...noStore, "referrer-policy": "no-referrer" } })

/** The account store is unreachable: the person can retry the same page (the pending sign-in is kept). */
const unavailablePage = HttpServerResponse.setHeader(
  html(errorPage("The sign-in service cannot reach its account store. Try again in a few seconds."), 503),
  "retry-after",
  "5"
)

/** The unread rest of an oversized body stays on the socket, so the connection is closed after the answer. */
const tooLarge = json(
  { error: "invalid_request", error_description: `the body is larger than ${maxBodyBytes} bytes` },
  413,
  { connection: "close" }
)

/** A bounded body (16 KiB) handed to `use`, or the RFC 6749 error for one that is too large or unreadable. */
const withBody = <A, R>(
  read: Effect.Effect<A, BodyTooLarge | MalformedBody, R>,
  malformed: OAuthErrorCode,
  use: (body: A) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
) =>
  read.pipe(
    Effect.matchEffect({
      onFailure: (error) =>
        Effect.succeed(
          error._tag === "BodyTooLarge"
            ? tooLarge
            : json({ error: malformed, error_description: `the body ${error.reason}` }, 400)
        ),
      onSuccess: use
    })
  )

/**
 * PostgreSQL stores no NUL character: a parameter holding one would reach the store and fail there
 * as an outage (503). Such requests are malformed, and refused before any lookup.
 */
const nulReason = "holds the NUL character, which no parameter accepts"
const holdsNul = (parameters: URLSearchParams) =>
  [...parameters].some(([name, value]) => name.includes("\u0000") || value.includes("\u0000"))

/** A bounded form body (see `withBody`) as parameters; one holding a NUL is refused before any lookup. */
const withForm = <R>(
  request: HttpServerRequest.HttpServerRequest,
  use: (form: URLSearchParams) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
) =>
  withBody(readText(request, maxBodyBytes), "invalid_request", (text) => {
    const form = new URLSearchParams(text)
    return holdsNul(form)
      ? Effect.succeed(json({ error: "invalid_request", error_description: `the body ${nulReason}` }, 400))
      : use(form)
  })

const isForm = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["content-type"]?.toLowerCase().startsWith("application/x-www-form-urlencoded") === true

const formRequired = json({
  error: "invalid_request",
  error_description: "the body must be application/x-www-form-urlencoded"
}, 400)

const queryOf = (url: string) => new URLSearchParams(url.includes("?") ? url.slice(url.indexOf("?") + 1) : "")

const preflight = (methods: string) =>
  Effect.succeed(HttpServerResponse.empty({
    status: 204,
    headers: {
      ...cors,
      "access-control-allow-methods": methods,
      "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
      "access-control-max-age": "86400"
    }
  }))

export const OAuthRoutesLive = Layer.unwrapEffect(Effect.gen(function*() {
  const server = yield* OAuthServer
  const config = yield* AppConfig
  const limits = yield* OAuthLimits
  const metadataBody = new TextEncoder().encode(
    JSON.stringify(Schema.encodeSync(AuthorizationServerMetadata)(server.metadata))
  )
  const metadataEtag = weakEtag(metadataBody)
  const authorizeAction = server.metadata.authorization_endpoint

  const metadata = Effect.sync(() =>
    HttpServerResponse.uint8Array(metadataBody, {
      contentType: "application/json",
      headers: { etag: metadataEtag, ...cors }
    })
  )

  const register = (request: HttpServerRequest.HttpServerRequest) =>
    withBody(readJson(request, maxBodyBytes), "invalid_client_metadata", (body) =>
      server.register(body).pipe(
        Effect.match({ onFailure: oauthError, onSuccess: (client) => json(client, 201) })
      ))

  const authorizePage = (request: HttpServerRequest.HttpServerRequest) =>
    holdsNul(queryOf(request.url))
      ? Effect.succeed(html(errorPage(`The request ${nulReason}.`), 400))
      : authorizeQuery(queryOf(request.url))

  const authorizeQuery = (query: URLSearchParams) =>
    server.beginAuthorization(query).pipe(
      Effect.match({
        onFailure: (refusal) =>
          refusal._tag === "Redirect"
            ? redirect(refusal.location, 302)
            : refusal._tag === "Unavailable"
            ? unavailablePage
            : html(errorPage(refusal.description), 400),
        onSuccess: (consent) => html(consentPage(consent, authorizeAction))
      })
    )

  const authorizeDecision = (request: HttpServerRequest.HttpServerRequest) =>
    isForm(request)
      ? withForm(request, (form) =>
        clientAddressOf(request, config.trustProxy).pipe(
          Effect.flatMap((address) =>
            server.completeAuthorization({
              handle: form.get("handle") ?? "",
              email: form.get("email") ?? "",
              password: form.get("password") ?? "",
              approve: form.get("decision") === "allow",
              address
            })
          ),
          Effect.match({
            onFailure: () => unavailablePage,
            onSuccess: (outcome) => {
              switch (outcome._tag) {
                case "Redirect":
                  return redirect(outcome.location, 303)
                case "Retry":
                  return html(consentPage(outcome.consent, authorizeAction, outcome.message))
                case "Throttled":
                  return html(consentPage(outcome.consent, authorizeAction, outcome.message), outcome.status, {
                    "retry-after": String(outcome.retryAfterSeconds)
                  })
                case "Expired":
                  return html(errorPage("This sign-in request has expired or was already answered."), 400)
              }
            }
          })
        ))
      : Effect.succeed(html(errorPage("The sign-in form was not submitted as a form."), 400))

  const token = (request: HttpServerRequest.HttpServerRequest) =>
    isForm(request)
      ? withForm(request, (form) =>
        server.token(form, {
          authorization: request.headers["authorization"],
          userAgent: request.headers["user-agent"]
        }).pipe(Effect.match({ onFailure: oauthError, onSuccess: (tokens) => json(tokens) })))
      : Effect.succeed(formRequired)

  const revoke = (request: HttpServerRequest.HttpServerRequest) =>
    isForm(request)
      ? withForm(request, (form) =>
        server.revoke(form, request.headers["authorization"]).pipe(
          Effect.match({ onFailure: oauthError, onSuccess: () => json({}) })
        ))
      : Effect.succeed(formRequired)

  // a client over its budget: RFC 6749-style JSON for the machine endpoints, a page for the browser
  const limitedJson = (limited: OAuthLimited) =>
    json(
      {
        error: "temporarily_unavailable",
        error_description: `too many ${limited.what}; retry in ${limited.retryAfterSeconds} s`
      },
      429,
      { "retry-after": String(limited.retryAfterSeconds) }
    )
  const limitedPage = (limited: OAuthLimited) =>
    html(
      errorPage(`Too many ${limited.what}. Wait ${waitText(limited.retryAfterSeconds)}, then start again.`),
      429,
      { "retry-after": String(limited.retryAfterSeconds) }
    )
  const requestsOnly = (address: string) => limits.request(address)
  const registrations = (address: string) =>
    Effect.flatMap(
      limits.request(address),
      (limited) => limited === undefined ? limits.registration(address) : Effect.succeed(limited)
    )

  /** The handler behind the budgets `count` spends for the client's address (unknown: not counted). */
  const limitedBy = <R>(
    count: (address: string) => Effect.Effect<OAuthLimited | undefined>,
    answer: (limited: OAuthLimited) => HttpServerResponse.HttpServerResponse,
    handler: (
      request: HttpServerRequest.HttpServerRequest
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
  ) =>
  (request: HttpServerRequest.HttpServerRequest) =>
    Effect.flatMap(clientAddressOf(request, config.trustProxy), (address) =>
      address === undefined
        ? handler(request)
        : Effect.flatMap(count(address), (limited) =>
          limited === undefined ? handler(request) : Effect.succeed(answer(limited))))

  return HttpLayerRouter.addAll([
    HttpLayerRouter.route("GET", OAuthPaths.metadata, metadata),
    HttpLayerRouter.route("OPTIONS", OAuthPaths.metadata, preflight("GET, OPTIONS")),
    HttpLayerRouter.route("POST", OAuthPaths.register, limitedBy(registrations, limitedJson, register)),
    HttpLayerRouter.route("GET", OAuthPaths.authorize, limitedBy(requestsOnly, limitedPage, authorizePage)),
    HttpLayerRouter.route("POST", OAuthPaths.authorize, limitedBy(requestsOnly, limitedPage, authorizeDecision)),
    HttpLayerRouter.route("POST", OAuthPaths.token, limitedBy(requestsOnly, limitedJson, token)),
    HttpLayerRouter.route("POST", OAuthPaths.revoke, limitedBy(requestsOnly, limitedJson, revoke)),
    ...[OAuthPaths.register, OAuthPaths.token, OAuthPaths.revoke].map((path) =>
      HttpLayerRouter.route("OPTIONS", path, preflight("POST, OPTIONS"))
    )
  ])
}))
