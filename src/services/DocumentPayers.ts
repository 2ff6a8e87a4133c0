import { Context, Data, Effect, Layer } from "effect"
import type { Principal } from "../domain/Principal.ts"
import type { StoreUnavailable } from "../domain/Problem.ts"
import { type Charged, Credits, type CreditsShape, type NoCredits } from "./Credits.ts"
import { Entitlement } from "./ServiceJwt.ts"

/** Who pays for a final document, and how. */
export interface Payer {
  /** `credits`: one prepaid credit per final document; `plan`: covered by the caller's plan. */
  readonly metering: "credits" | "plan"
  /** A billing problem that blocks final documents until it is resolved. */
  readonly billingIssue: boolean
  readonly balance: Effect.Effect<number>
  /**
   * Runs the rendering paid for: one credit, given back if it fails, or nothing under a plan;
   * `StoreUnavailable` when the credit cannot be taken. `remaining` is the balance left after it
   * (0 under a plan).
   */
  readonly pay: <A, E, R>(
    work: Effect.Effect<A, E, R>
  ) => Effect.Effect<Charged<A>, E | NoCredits | StoreUnavailable, R>
}

/** The principal cannot pay for documents at all: not signed in, a deactivated key, or not entitled. */
export class NoPayer extends Data.TaggedError("NoPayer")<{
  readonly reason: "unauthenticated" | "inactive" | "not_entitled"
}> {}

/**
 * The one rule turning a principal into a payer, for REST `/pdf/*` and the MCP document tools alike.
 * Deployments differ by the layer they provide; which credentials a surface admits at all (REST
 * `/pdf/*` takes only API keys on the public deployment) stays with that surface.
 */
export interface DocumentPayersShape {
  readonly payerOf: (principal: Principal) => Effect.Effect<Payer, NoPayer>
}

export class DocumentPayers extends Context.Tag("app/DocumentPayers")<DocumentPayers, DocumentPayersShape>() {}

/** The credits account of a signed-in user (API keys use their key id). */
export const userAccount = (userId: string): string => `user:${userId}`

const creditsOf = (credits: CreditsShape, account: string, billingIssue: boolean): Payer => ({
  metering: "credits",
  billingIssue,
  balance: credits.balance(account),
  pay: (work) => credits.charge(account, work)
})

const underPlan: Payer = {
  metering: "plan",
  billingIssue: false,
  balance: Effect.succeed(0),
  pay: (work) => Effect.map(work, (value) => ({ value, remaining: 0 }))
}

/**
 * The public deployment: an API key pays with its prepaid credits (a key with a billing issue is
 * known but cannot buy final documents; a deactivated key pays for nothing); a signed-in user on the
 * paid tier renders under the plan, one on the free tier with the credits of their account.
 */
export const layerPublic: Layer.Layer<DocumentPayers, never, Credits> = Layer.effect(
  DocumentPayers,
  Effect.map(Credits, (credits) => ({
    payerOf: (principal) => {
      switch (principal._tag) {
        case "ApiKey":
          return principal.status === "inactive"
            ? Effect.fail(new NoPayer({ reason: "inactive" }))
            : Effect.succeed(creditsOf(credits, principal.keyId, principal.status === "billing_issue"))
        case "OAuthUser":
          return Effect.succeed(
            principal.tier === "paid" ? underPlan : creditsOf(credits, userAccount(principal.userId), false)
          )
        default:
          return Effect.fail(new NoPayer({ reason: "unauthenticated" }))
      }
    }
  }))
)

/** The enclave: a service holding the `pdf` entitlement renders under its plan; nobody else pays. */
export const layerEnclave: Layer.Layer<DocumentPayers> = Layer.succeed(DocumentPayers, {
  payerOf: (principal) => {
    if (principal._tag !== "Service") return Effect.fail(new NoPayer({ reason: "unauthenticated" }))
    return principal.entitlements.includes(Entitlement.pdf)
      ? Effect.succeed(underPlan)
      : Effect.fail(new NoPayer({ reason: "not_entitled" }))
  }
})
