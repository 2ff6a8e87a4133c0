import { Effect, Option } from "effect"
import { issueSecret, randomId, secretMatches } from "../accounts/Secrets.ts"
import type { UserDirectoryShape } from "../UserDirectory.ts"
import { type AuthorizationRequest, redirectWith } from "./AuthorizationRequest.ts"
import { Lifetime, Prefix } from "./Grants.ts"

export type SignInOutcome<C> =
  | { readonly _tag: "Redirect"; readonly location: string }
  | { readonly _tag: "Retry"; readonly consent: C; readonly message: string }
  | { readonly _tag: "Expired" }

export interface IssuedCode {
  readonly request: AuthorizationRequest
  readonly userId: string
  readonly expiresAt: number
  /** The connection this code creates; known in advance so that a replayed code can end it. */
  readonly grantId: string
  /** Set on first presentation: a code is good once, whatever the outcome. */
  usedAt: number | undefined
}

interface Pending {
  readonly request: AuthorizationRequest
  readonly expiresAt: number
  failures: number
}

const maxEntries = 10_000
const maxFailures = 5

const sweep = <A extends { readonly expiresAt: number }>(table: Map<string, A>, now: number) => {
  for (const [key, entry] of table) if (entry.expiresAt <= now) table.delete(key)
}

/**
 * The short-lived, in-process part of the authorization code flow: requests waiting on the consent
 * page (10 minutes, five sign-in attempts) and issued codes (one minute, single use). Both tables
 * are bounded; nothing here outlives a restart, which only means a user signs in again.
 */
export const makeSignIns = (users: UserDirectoryShape) => {
  const pending = new Map<string, Pending>()
  const codes = new Map<string, IssuedCode & { readonly secretHash: string }>()

  const room = <A extends { readonly expiresAt: number }>(table: Map<string, A>) => {
    if (table.size >= maxEntries) sweep(table, Date.now())
    return table.size < maxEntries
  }

  return {
    open: (request: AuthorizationRequest): Effect.Effect<string, "full"> =>
      Effect.suspend(() => {
        if (!room(pending)) return Effect.fail("full" as const)
        const handle = randomId(24)
        pending.set(handle, { request, expiresAt: Date.now() + Lifetime.consentMillis, failures: 0 })
        return Effect.succeed(handle)
      }),

    decide: <C>(
      form: { readonly handle: string; readonly email: string; readonly password: string; readonly approve: boolean },
      context: {
        readonly issuer: string
        readonly consent: (handle: string, request: AuthorizationRequest) => C | undefined
      }
    ): Effect.Effect<SignInOutcome<C>> =>
      Effect.suspend(() => {
        const entry = pending.get(form.handle)
        const consent = entry === undefined ? undefined : context.consent(form.handle, entry.request)
        if (entry === undefined || entry.expiresAt <= Date.now() || consent === undefined) {
          pending.delete(form.handle)
          return Effect.succeed({ _tag: "Expired" as const })
        }
        const { request } = entry
        const back = (parameters: Record<string, string>) => ({
          _tag: "Redirect" as const,
          location: redirectWith(request.redirectUri, { ...parameters, state: request.state, iss: context.issuer })
        })
        if (!form.approve) {
          pending.delete(form.handle)
          return Effect.succeed(back({ error: "access_denied", error_description: "the user declined" }))
        }
        return users.signIn(form.email, form.password).pipe(
          Effect.catchAll(() => Effect.succeedNone),
          Effect.map((account): SignInOutcome<C> => {
            if (!pending.has(form.handle)) return { _tag: "Expired" }
            if (Option.isNone(account)) {
              entry.failures++
              if (entry.failures < maxFailures) {
                return { _tag: "Retry", consent, message: "The email address or password is not correct." }
              }
              pending.delete(form.handle)
              return back({ error: "access_denied", error_description: "too many failed sign-in attempts" })
            }
            pending.delete(form.handle)
            if (!room(codes)) {
              return back({ error: "temporarily_unavailable", error_description: "too many sign-ins in progress" })
            }
            const code = issueSecret(Prefix.code)
            codes.set(code.id, {
              request,
              userId: account.value.id,
              expiresAt: Date.now() + Lifetime.codeMillis,
              grantId: `grt_${randomId(12)}`,
              usedAt: undefined,
              secretHash: code.hash
            })
            return back({ code: code.value })
          })
        )
      }),

    /** The code behind a presented value, now used; undefined unless the secret matches. */
    takeCode: (id: string, secret: string): { readonly code: IssuedCode; readonly reused: boolean } | undefined => {
      const code = codes.get(id)
      if (code === undefined || !secretMatches(secret, code.secretHash)) return undefined
      const reused = code.usedAt !== undefined
      code.usedAt ??= Date.now()
      return { code, reused }
    }
  }
}
