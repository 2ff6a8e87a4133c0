import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Effect, Either, Option, Schema } from "effect"
import { issueSecret, randomId, secretMatches } from "../accounts/Secrets.ts"
import type { UserDirectoryShape } from "../UserDirectory.ts"
import { type AuthorizationRequest, redirectWith } from "./AuthorizationRequest.ts"
import { Lifetime, Prefix } from "./Grants.ts"
import type { SignInThrottle } from "./SignInThrottle.ts"

export type SignInOutcome<C> =
  | { readonly _tag: "Redirect"; readonly location: string }
  | { readonly _tag: "Retry"; readonly consent: C; readonly message: string }
  | { readonly _tag: "Expired" }
  /**
   * No password was checked, or none could be: the e-mail address or the client address is locked,
   * the throttle is unreadable, or the user directory cannot answer (503).
   */
  | {
    readonly _tag: "Throttled"
    readonly consent: C
    readonly status: 429 | 503
    readonly retryAfterSeconds: number
    readonly message: string
  }

/** What the sign-in form carries, plus the client address the request came from (unknown → not counted). */
export interface SignInForm {
  readonly handle: string
  readonly email: string
  readonly password: string
  readonly approve: boolean
  readonly address: string | undefined
}

export interface IssuedCode {
  readonly request: AuthorizationRequest
  readonly userId: string
  readonly expiresAt: number
  /** The connection this code creates; known in advance so that a replayed code can end it. */
  readonly grantId: string
}

/** "45 seconds", "2 minutes": how long a throttled user waits, rounded up to what a person reads. */
export const waitText = (seconds: number): string =>
  seconds < 120 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${Math.ceil(seconds / 60)} minutes`

const throttled = <C>(consent: C, status: 429 | 503, retryAfterSeconds: number): SignInOutcome<C> => ({
  _tag: "Throttled",
  consent,
  status,
  retryAfterSeconds,
  message: status === 429
    ? `Too many sign-in attempts. Wait ${waitText(retryAfterSeconds)}, then try again.`
    : "Sign-in is unavailable for a moment. Try again shortly."
})

const maxEntries = 10_000
const maxFailures = 5
/** Used codes are kept a while past expiry, so a late replay is still recognised as reuse. */
const usedCodeRetentionMillis = 10 * 60 * 1000

const StoredRequest = Schema.Struct({
  clientId: Schema.String,
  redirectUri: Schema.String,
  state: Schema.optional(Schema.String),
  codeChallenge: Schema.String,
  scopes: Schema.Array(Schema.String),
  resource: Schema.String
})
const decodeRequest = Schema.decodeUnknown(StoredRequest)
const requestOf = (stored: typeof StoredRequest.Type): AuthorizationRequest => ({
  ...stored,
  state: stored.state
})

/**
 * The short-lived part of the authorization code flow, in the SQL store: requests waiting on the
 * consent page (10 minutes, five sign-in attempts) and issued codes (one minute, single use). Any
 * instance continues a flow another began, and a restart loses none. A pending sign-in becomes a
 * code at most once (the instance whose `DELETE … RETURNING` gets the row issues it), and a code is
 * marked used by the first presentation whichever instance sees it. Both tables are bounded.
 */
export const makeSignIns = (users: UserDirectoryShape, throttle: SignInThrottle) =>
  Effect.map(SqlClient, (sql) => {
    const room = (table: "oauth_pending" | "oauth_codes") =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const cutoff = table === "oauth_codes" ? now - usedCodeRetentionMillis : now
        yield* sql`DELETE FROM ${sql(table)} WHERE expires_at <= ${cutoff}`
        const [row] = yield* sql<{ n: number }>`SELECT count(*)::bigint AS n FROM ${sql(table)}`
        return (row?.n ?? 0) < maxEntries
      })

    const open = (request: AuthorizationRequest): Effect.Effect<string, "full"> =>
      Effect.gen(function*() {
        if (!(yield* room("oauth_pending"))) return yield* Effect.fail("full" as const)
        const handle = randomId(24)
        const expiresAt = (yield* Clock.currentTimeMillis) + Lifetime.consentMillis
        yield* sql`INSERT INTO oauth_pending ${sql.insert({ handle, request: JSON.stringify(request), expiresAt })}`
        return handle
      }).pipe(Effect.catchTag("SqlError", () => Effect.fail("full" as const)))

    const pendingOf = (handle: string) =>
      Effect.gen(function*() {
        const [row] = yield* sql<{ request: unknown; expiresAt: number }>`
          SELECT request, expires_at FROM oauth_pending WHERE handle = ${handle}`
        if (row === undefined) return undefined
        const request = yield* Effect.option(decodeRequest(row.request))
        return Option.isNone(request) ? undefined : { request: requestOf(request.value), expiresAt: row.expiresAt }
      })

    const decide = <C, E>(
      form: SignInForm,
      context: {
        readonly issuer: string
        readonly consent: (handle: string, request: AuthorizationRequest) => Effect.Effect<C | undefined, E>
      }
    ): Effect.Effect<SignInOutcome<C>, SqlError | E> =>
      Effect.gen(function*() {
        const expired = { _tag: "Expired" as const }
        const forget = sql`DELETE FROM oauth_pending WHERE handle = ${form.handle} RETURNING handle`
        const entry = yield* pendingOf(form.handle)
        const consent = entry === undefined ? undefined : yield* context.consent(form.handle, entry.request)
        if (entry === undefined || entry.expiresAt <= (yield* Clock.currentTimeMillis) || consent === undefined) {
          yield* forget
          return expired
        }
        const { request } = entry
        const back = (parameters: Record<string, string>) => ({
          _tag: "Redirect" as const,
          location: redirectWith(request.redirectUri, { ...parameters, state: request.state, iss: context.issuer })
        })
        if (!form.approve) {
          const taken = yield* forget
          return taken.length === 0 ? expired : back({ error: "access_denied", error_description: "the user declined" })
        }
        const who = { email: form.email, address: form.address }
        const admission = yield* throttle.admit(who).pipe(
          Effect.catchTag("SqlError", () => Effect.succeed({ _tag: "Unavailable" as const }))
        )
        if (admission._tag !== "Admitted") {
          return admission._tag === "Locked"
            ? throttled(consent, 429, Math.ceil(admission.retryAfterMillis / 1000))
            : throttled(consent, 503, 30)
        }
        // a directory that cannot answer has not refused anyone: "unavailable", and no failure counted
        const checked = yield* Effect.either(users.signIn(form.email, form.password))
        if (Either.isLeft(checked)) {
          yield* Effect.logWarning("sign-in: the user directory cannot be asked", { reason: checked.left.reason })
          return throttled(consent, 503, 30)
        }
        const account = checked.right
        if (Option.isNone(account)) {
          const [counted] = yield* sql<{ failures: number }>`
            UPDATE oauth_pending SET failures = failures + 1 WHERE handle = ${form.handle} RETURNING failures`
          if (counted === undefined) return expired
          if (counted.failures < maxFailures) {
            const wait = Math.ceil(admission.waitAfterFailureMillis / 1000)
            const message = wait === 0
              ? "The email address or password is not correct."
              : `The email address or password is not correct. Wait ${waitText(wait)} before trying again.`
            return { _tag: "Retry" as const, consent, message }
          }
          yield* forget
          return back({ error: "access_denied", error_description: "too many failed sign-in attempts" })
        }
        // the sign-in is consumed exactly once, whichever instance (or double submit) gets here first
        if ((yield* forget).length === 0) return expired
        // a count left behind only slows this account's next mistakes: not worth failing the sign-in for
        yield* Effect.ignore(throttle.succeeded(who))
        if (!(yield* room("oauth_codes"))) {
          return back({ error: "temporarily_unavailable", error_description: "too many sign-ins in progress" })
        }
        const code = issueSecret(Prefix.code)
        const issuedAt = yield* Clock.currentTimeMillis
        yield* sql`INSERT INTO oauth_codes ${
          sql.insert({
            codeId: code.id,
            secretHash: code.hash,
            request: JSON.stringify(request),
            userId: account.value.id,
            grantId: `grt_${randomId(12)}`,
            expiresAt: issuedAt + Lifetime.codeMillis
          })
        }`
        return back({ code: code.value })
      })

    /** The code behind a presented value, now used; undefined unless the secret matches. */
    const takeCode = (id: string, secret: string) =>
      Effect.gen(function*() {
        const [row] = yield* sql<
          { secretHash: string; request: unknown; userId: string; grantId: string; expiresAt: number }
        >`SELECT secret_hash, request, user_id, grant_id, expires_at FROM oauth_codes WHERE code_id = ${id}`
        if (row === undefined || !secretMatches(secret, row.secretHash)) return undefined
        const request = yield* Effect.option(decodeRequest(row.request))
        if (Option.isNone(request)) return undefined
        const usedAt = yield* Clock.currentTimeMillis
        const first = yield* sql`
          UPDATE oauth_codes SET used_at = ${usedAt} WHERE code_id = ${id} AND used_at IS NULL RETURNING code_id`
        const code: IssuedCode = {
          request: requestOf(request.value),
          userId: row.userId,
          expiresAt: row.expiresAt,
          grantId: row.grantId
        }
        return { code, reused: first.length === 0 }
      })

    return { open, decide, takeCode }
  })

export type SignIns = Effect.Effect.Success<ReturnType<typeof makeSignIns>>
