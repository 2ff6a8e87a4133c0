import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Either, Layer, Redacted } from "effect"
import {
  ApiKeyInactive,
  ApiKeyRequired,
  CreditsRequired,
  freeDocumentSlugs,
  MaxPayloadBytes,
  type PlanInfo
} from "../../domain/Documents.ts"
import type { ApiKeyPrincipal } from "../../domain/Principal.ts"
import { InvalidRequest } from "../../domain/Problem.ts"
import { contractDocument, validatePayload } from "../../render/contracts/Contract.ts"
import { contracts } from "../../render/contracts/index.ts"
import { AppConfig } from "../../services/AppConfig.ts"
import { Auth } from "../../services/Auth.ts"
import { Credits } from "../../services/Credits.ts"
import { Renderer } from "../../services/Renderer.ts"
import { Api } from "../Api.ts"
import { problemResponse } from "../middleware/Problems.ts"
import { DocumentKey, DocumentsAuth } from "./Api.ts"
import { fileNameFor, readJsonBody } from "./Body.ts"

const planInfo = Effect.map(AppConfig, (config): PlanInfo => ({
  name: config.enterprisePlan.name,
  pricing: "1 prepaid credit ($1) per final document; drafts (?draft=1) and the restricted-party-screening " +
    "certificate are free",
  purchaseUrl: config.enterprisePlan.purchaseUrl,
  contact: config.enterprisePlan.contact
}))

export const DocumentsAuthLive = Layer.effect(
  DocumentsAuth,
  Effect.gen(function*() {
    const auth = yield* Auth
    const plan = yield* planInfo
    const required = new ApiKeyRequired({
      detail: "Document rendering needs an API key: send `Authorization: Bearer svc_live_…`.",
      plan
    })
    return {
      apiKey: (token) =>
        Effect.flatMap(auth.authenticate(`Bearer ${Redacted.value(token)}`), (principal): Effect.Effect<
          typeof ApiKeyPrincipal.Type,
          ApiKeyRequired | ApiKeyInactive
        > => {
          if (principal._tag !== "ApiKey") return Effect.fail(required)
          if (principal.status === "inactive") {
            return Effect.fail(new ApiKeyInactive({ detail: "This API key was deactivated." }))
          }
          return Effect.succeed(principal)
        })
    }
  })
)

const contractDocuments = Object.fromEntries(
  Object.entries(contracts).map(([slug, contract]) => [slug, contractDocument(contract)])
)

export const DocumentsHttpLive = HttpApiBuilder.group(Api, "documents", (handlers) =>
  Effect.gen(function*() {
    const renderer = yield* Renderer
    const credits = yield* Credits
    const plan = yield* planInfo
    return handlers
      .handle("contract", ({ path }) => Effect.succeed(contractDocuments[path.slug]!))
      .handleRaw("render", ({ path, request, urlParams }) =>
        Effect.gen(function*() {
          const key = yield* DocumentKey
          const contract = contracts[path.slug]
          const draft = urlParams.draft === "1" || urlParams.draft === "true"
          const body = yield* readJsonBody(request, MaxPayloadBytes)
          const payload = validatePayload(contract, body)
          if (Either.isLeft(payload)) {
            const names = payload.left.map((issue) => `${issue.name} (${issue.reason})`).join("; ")
            return yield* new InvalidRequest({ detail: `Invalid payload: ${names}`, invalidParams: payload.left })
          }
          const render = renderer.render({ slug: path.slug, payload: payload.right, draft })
          const free = draft || freeDocumentSlugs.has(path.slug)
          if (!free && key.status === "billing_issue") {
            return yield* new CreditsRequired({
              detail: "The key's billing needs attention before final documents can be rendered.",
              reason: "billing_issue",
              balance: yield* credits.balance(key.keyId),
              plan
            })
          }
          const rendered = free ? yield* render : yield* credits.spend(key.keyId, render).pipe(
            Effect.catchTag("NoCredits", ({ balance }) =>
              new CreditsRequired({
                detail: "No prepaid credits left for this key; drafts (?draft=1) stay free.",
                reason: "exhausted",
                balance,
                plan
              }))
          )
          const values = payload.right.values
          const fileName = fileNameFor(values.DOC_NUMBER as string, values.VERSION as string, draft)
          return HttpServerResponse.uint8Array(rendered.bytes, {
            contentType: "application/pdf",
            headers: {
              "content-disposition": `attachment; filename="${fileName}"`,
              "x-render-warnings": String(rendered.warnings),
              "cache-control": "no-store"
            }
          })
        }).pipe(
          // the rest of an oversized body is not worth reading: the connection closes after the answer
          Effect.catchTag("PayloadTooLarge", (error) => Effect.succeed(problemResponse(error, { connection: "close" })))
        ))
  })).pipe(Layer.provide(DocumentsAuthLive))
