import { Effect, Either } from "effect"
import {
  CreditsRequired,
  type DocumentSlug,
  freeDocumentSlugs,
  type PlanInfo,
  type RenderBackendUnavailable
} from "../domain/Documents.ts"
import { missingJudgements, validatePayload } from "../domain/documents/Contract.ts"
import { contracts } from "../domain/documents/index.ts"
import { InvalidRequest, type StoreUnavailable } from "../domain/Problem.ts"
import { AppConfig } from "./AppConfig.ts"
import { NoCredits } from "./Credits.ts"
import type { Payer } from "./DocumentPayers.ts"
import type { RendererShape } from "./Renderer.ts"

/** What a caller needs to obtain a key or credits: the `plan` of every 402 and of MCP purchase information. */
export const planInfo = Effect.map(AppConfig, (config): PlanInfo => ({
  name: config.enterprisePlan.name,
  pricing: "1 prepaid credit ($1) per final document; drafts (?draft=1 on REST, draft: true over MCP) and the " +
    "restricted-party-screening certificate are free",
  purchaseUrl: config.enterprisePlan.purchaseUrl,
  contact: config.enterprisePlan.contact
}))

export interface RenderOrder {
  readonly slug: DocumentSlug
  /** The parsed JSON payload, validated here against the slug's contract. */
  readonly body: unknown
  readonly draft: boolean
  /** Render a final even when judgement sections are empty (else such a payload renders as a draft). */
  readonly allowIncomplete?: boolean
  readonly payer: Payer
}

export interface RenderedDocument {
  readonly slug: DocumentSlug
  readonly draft: boolean
  readonly bytes: Uint8Array
  /** `Content-Disposition` file name, from DOC_NUMBER and VERSION. */
  readonly fileName: string
  readonly warnings: { readonly count: number; readonly messages: ReadonlyArray<string> }
}

/** How a render was paid; credit-metered payers also learn what it cost and what is left. */
export interface Charge {
  readonly metering: "credits" | "plan" | "free"
  readonly credits?: { readonly charged: number; readonly remaining: number }
}

/** `Content-Disposition` file name from the document number: ASCII letters, digits, `.`, `_`, `-` only. */
export const fileNameFor = (docNumber: string | undefined, version: string | undefined, draft: boolean): string => {
  const safe = (value: string) =>
    value.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/-{2,}/g, "-")
      .replace(/^[-.]+|[-.]+$/g, "")
  const base = safe(docNumber ?? "").slice(0, 80) || "document"
  const safeVersion = safe(version ?? "").slice(0, 16)
  const suffix = safeVersion === "" ? "" : `-v${safeVersion}`
  return `${base}${suffix}${draft ? "-DRAFT" : ""}.pdf`
}

/**
 * The rules of a render order, the same for REST and MCP: the payload is validated against its
 * contract; drafts and the restricted-party-screening certificate are free; a final document needs a
 * payer without a billing issue and costs one credit when credit-metered. `deliver` (hand the bytes
 * over, store them behind a link) runs inside the paid work, so a failed delivery gives the credit
 * back.
 */
export const make = (renderer: RendererShape, plan: PlanInfo) =>
<A, E>(
  order: RenderOrder,
  deliver: (document: RenderedDocument) => Effect.Effect<A, E>
): Effect.Effect<
  { readonly delivered: A; readonly document: RenderedDocument; readonly charge: Charge },
  E | InvalidRequest | CreditsRequired | RenderBackendUnavailable | StoreUnavailable
> =>
  Effect.gen(function*() {
    const { payer, slug } = order
    const payload = validatePayload(contracts[slug], order.body)
    if (Either.isLeft(payload)) {
      const names = payload.left.map((issue) => `${issue.name} (${issue.reason})`).join("; ")
      return yield* new InvalidRequest({ detail: `Invalid payload: ${names}`, invalidParams: payload.left })
    }
    const values = payload.right.values
    // a skeleton must not pass for a paid final: with judgement sections empty it is a (free) draft unless asked for
    const incomplete = missingJudgements(contracts[slug], values)
    const downgraded = !order.draft && incomplete.length > 0 && order.allowIncomplete !== true
    const draft = order.draft || downgraded
    const notes = downgraded
      ? [
        `${incomplete.length} required section(s) empty, rendered as a draft; ask for allow_incomplete to render a final`
      ]
      : []
    const work = Effect.flatMap(renderer.render({ slug, payload: payload.right, draft }), (rendered) => {
      const document: RenderedDocument = {
        slug,
        draft,
        bytes: rendered.bytes,
        fileName: fileNameFor(values.DOC_NUMBER as string, values.VERSION as string, draft),
        warnings: { count: rendered.warnings + notes.length, messages: [...notes, ...rendered.warningMessages] }
      }
      return Effect.map(deliver(document), (delivered) => ({ delivered, document }))
    })
    const free = draft || freeDocumentSlugs.has(slug)
    if (!free && payer.billingIssue) {
      return yield* new CreditsRequired({
        detail: "The key's billing needs attention before final documents can be rendered.",
        reason: "billing_issue",
        balance: yield* payer.balance,
        plan
      })
    }
    // a paid render learns the balance left from its settlement, not from a read of its own
    const paid = free ? { value: yield* work, remaining: undefined } : yield* payer.pay(work).pipe(
      Effect.catchIf((error): error is NoCredits => error instanceof NoCredits, ({ balance }) =>
        new CreditsRequired({
          detail: "No prepaid credits left for this account; drafts stay free.",
          reason: "exhausted",
          balance,
          plan
        }))
    )
    const metering = free ? "free" : payer.metering
    const charge: Charge = payer.metering === "credits"
      ? { metering, credits: { charged: free ? 0 : 1, remaining: paid.remaining ?? (yield* payer.balance) } }
      : { metering }
    return { ...paid.value, charge }
  })
