import { Effect, Layer } from "effect"
import { ApiKeyInactive, ApiKeyRequired } from "../../domain/Documents.ts"
import { credentialChecked, type Principal } from "../../domain/Principal.ts"
import { DocumentPayers } from "../../services/DocumentPayers.ts"
import { planInfo } from "../../services/DocumentRendering.ts"
import { requestPrincipal } from "../middleware/Principal.ts"
import { DocumentsAuth } from "./Api.ts"

/**
 * The `/pdf/*` security middleware: the principals this deployment's REST surface admits, each
 * paying as `DocumentPayers` decides. Missing or unknown credentials are 402 with plan information,
 * deactivated keys 403, a credential the unreachable store could not check 503.
 */
const documentsAuth = (admits: (principal: Principal) => boolean, detail: string) =>
  Layer.effect(
    DocumentsAuth,
    Effect.gen(function*() {
      const payers = yield* DocumentPayers
      const required = new ApiKeyRequired({ detail, plan: yield* planInfo })
      const inactive = new ApiKeyInactive({ detail: "This API key was deactivated." })
      return {
        // the bearer was resolved once for the whole request; the token argument is that same bearer
        apiKey: () =>
          Effect.flatMap(Effect.zipRight(credentialChecked, requestPrincipal), (principal) =>
            admits(principal)
              ? Effect.catchTag(
                payers.payerOf(principal),
                "NoPayer",
                ({ reason }) => Effect.fail(reason === "inactive" ? inactive : required)
              )
              : Effect.fail(required))
      }
    })
  )

/**
 * The public deployment's REST surface takes API keys only (SPEC Authentication); OAuth users render
 * over MCP. A key with a billing issue is accepted: drafts stay free.
 */
export const DocumentsAuthByApiKey = documentsAuth(
  (principal) => principal._tag === "ApiKey",
  "Document rendering needs an API key: send `Authorization: Bearer svc_live_…`."
)

/** The enclave: services (the access policy has already refused everyone else with 401 or 403). */
export const DocumentsAuthByEntitlement = documentsAuth(
  (principal) => principal._tag === "Service",
  "Document rendering needs a service JWT with the `pdf` entitlement."
)
