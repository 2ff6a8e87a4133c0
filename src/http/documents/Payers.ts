import { Effect, Layer, Redacted } from "effect"
import { ApiKeyInactive, ApiKeyRequired } from "../../domain/Documents.ts"
import type { Principal } from "../../domain/Principal.ts"
import { Auth } from "../../services/Auth.ts"
import { Credits } from "../../services/Credits.ts"
import { Entitlement } from "../../services/ServiceJwt.ts"
import { type DocumentPayerShape, DocumentsAuth } from "./Api.ts"
import { planInfo } from "./Http.ts"

/** The `/pdf/*` security middleware over a rule turning the caller's principal into a payer. */
const documentsAuth = (
  payerOf: (
    principal: Principal,
    required: ApiKeyRequired
  ) => Effect.Effect<DocumentPayerShape, ApiKeyRequired | ApiKeyInactive>,
  detail: string
) =>
  Layer.effect(
    DocumentsAuth,
    Effect.gen(function*() {
      const auth = yield* Auth
      const required = new ApiKeyRequired({ detail, plan: yield* planInfo })
      return {
        apiKey: (token) =>
          Effect.flatMap(auth.authenticate(`Bearer ${Redacted.value(token)}`), (principal) =>
            payerOf(principal, required))
      }
    })
  )

/**
 * The public deployment: an API key pays with its prepaid credits. Missing or unknown keys are 402,
 * deactivated keys 403; a key with a billing issue is accepted (drafts stay free).
 */
export const DocumentsAuthByApiKey = Layer.unwrapEffect(
  Effect.map(Credits, (credits) =>
    documentsAuth((principal, required) => {
      if (principal._tag !== "ApiKey") return Effect.fail(required)
      if (principal.status === "inactive") {
        return Effect.fail(new ApiKeyInactive({ detail: "This API key was deactivated." }))
      }
      return Effect.succeed({
        billingIssue: principal.status === "billing_issue",
        balance: credits.balance(principal.keyId),
        pay: (work) => credits.spend(principal.keyId, work)
      })
    }, "Document rendering needs an API key: send `Authorization: Bearer svc_live_…`."))
)

/**
 * The enclave: a service holding the `pdf` entitlement renders under its plan, without credits (the
 * access policy has already refused everyone else with 401 or 403).
 */
export const DocumentsAuthByEntitlement = documentsAuth(
  (principal, required) =>
    principal._tag === "Service" && principal.entitlements.includes(Entitlement.pdf)
      ? Effect.succeed({ billingIssue: false, balance: Effect.succeed(0), pay: (work) => work })
      : Effect.fail(required),
  "Document rendering needs a service JWT with the `pdf` entitlement."
)
