import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Effect } from "effect"
import { sha256 } from "../accounts/Secrets.ts"

/** How one kind of subject is throttled: attempts allowed freely, then a doubling wait up to a cap. */
export interface ThrottlePolicy {
  /** Attempts within the window that wait nothing; 0 turns this subject's throttle off. */
  readonly freeAttempts: number
  readonly firstDelayMillis: number
  readonly maxDelayMillis: number
}

export interface SignInThrottleOptions {
  readonly account: ThrottlePolicy
  readonly address: ThrottlePolicy
  /** How long the count outlives its last lock; after that the subject starts afresh. */
  readonly windowMillis: number
}

/** Who is signing in: the e-mail address as typed (never stored, only its hash) and the client address. */
export interface SignInSubjects {
  readonly email: string
  readonly address: string | undefined
}

export type Admission =
  | { readonly _tag: "Locked"; readonly retryAfterMillis: number }
  /** `waitAfterFailure`: what the next attempt waits if this one turns out to be wrong. */
  | { readonly _tag: "Admitted"; readonly waitAfterFailureMillis: number }

/** The wait the `attempt`-th attempt of a window earns (the first `freeAttempts` earn none). */
export const delayAfter = (policy: ThrottlePolicy, attempt: number): number =>
  policy.freeAttempts === 0 || attempt <= policy.freeAttempts
    ? 0
    : Math.min(policy.maxDelayMillis, policy.firstDelayMillis * 2 ** Math.min(attempt - policy.freeAttempts - 1, 40))

interface Row {
  readonly subject: string
  readonly attempts: number
  readonly lockedUntil: number
  readonly expiresAt: number
}

/** E-mail addresses are compared as the user directory compares them: trimmed, case-insensitive. */
const accountSubject = (email: string) => `account:${sha256(email.trim().toLowerCase())}`
const addressSubject = (address: string) => `address:${sha256(address)}`

/**
 * Sign-in throttling across every pending authorization request and every instance, in the SQL
 * store next to the pending sign-ins themselves: one row per e-mail address tried (whether or not
 * such an account exists, so the answer tells nothing about existence) and one per client address.
 *
 * An attempt is counted before the password is checked, under the rows' locks, so a burst of
 * parallel attempts cannot all slip through before the first failure is written. Past a policy's
 * free attempts each attempt locks its subject for a doubling wait; an attempt while a subject is
 * locked is refused without checking the password and without counting. A right password clears
 * the account's count (the address keeps its own, less the attempt that succeeded). A store that
 * cannot be read refuses the sign-in: the throttle fails closed, as the pending sign-ins it guards
 * live in the same store.
 */
export const makeSignInThrottle = (options: SignInThrottleOptions) =>
  Effect.map(SqlClient, (sql) => {
    const subjectsOf = (who: SignInSubjects) => {
      const subjects: Array<{ readonly subject: string; readonly policy: ThrottlePolicy; readonly account: boolean }> =
        []
      if (options.account.freeAttempts > 0) {
        subjects.push({ subject: accountSubject(who.email), policy: options.account, account: true })
      }
      if (options.address.freeAttempts > 0 && who.address !== undefined) {
        subjects.push({ subject: addressSubject(who.address), policy: options.address, account: false })
      }
      // rows are always locked in the same order, so two attempts sharing a subject cannot deadlock
      return subjects.sort((a, b) => a.subject < b.subject ? -1 : 1)
    }

    const admit = (who: SignInSubjects): Effect.Effect<Admission, SqlError> => {
      const subjects = subjectsOf(who)
      if (subjects.length === 0) return Effect.succeed({ _tag: "Admitted", waitAfterFailureMillis: 0 })
      return sql.withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        yield* sql`INSERT INTO oauth_sign_in_throttle ${
          sql.insert(subjects.map(({ subject }) => ({ subject, attempts: 0, lockedUntil: 0, expiresAt: 0 })))
        } ON CONFLICT (subject) DO NOTHING`
        const rows = yield* sql<Row>`
          SELECT subject, attempts, locked_until, expires_at FROM oauth_sign_in_throttle
          WHERE ${sql.in("subject", subjects.map(({ subject }) => subject))} ORDER BY subject FOR UPDATE`
        const locked = Math.max(0, ...rows.map((row) => Number(row.lockedUntil) - now))
        if (locked > 0) return { _tag: "Locked", retryAfterMillis: locked } as const
        let wait = 0
        for (const { policy, subject } of subjects) {
          const row = rows.find((candidate) => candidate.subject === subject)
          const attempts = (row === undefined || Number(row.expiresAt) <= now ? 0 : row.attempts) + 1
          const delay = delayAfter(policy, attempts)
          wait = Math.max(wait, delay)
          yield* sql`UPDATE oauth_sign_in_throttle SET attempts = ${attempts}, locked_until = ${now + delay},
            expires_at = ${now + delay + options.windowMillis} WHERE subject = ${subject}`
        }
        return { _tag: "Admitted", waitAfterFailureMillis: wait } as const
      }))
    }

    /** The attempt was right: the account starts afresh; the address forgets this attempt only. */
    const succeeded = (who: SignInSubjects): Effect.Effect<void, SqlError> =>
      Effect.gen(function*() {
        for (const { account, subject } of subjectsOf(who)) {
          if (account) {
            yield* sql`DELETE FROM oauth_sign_in_throttle WHERE subject = ${subject}`
          } else {
            yield* sql`UPDATE oauth_sign_in_throttle SET attempts = GREATEST(attempts - 1, 0) WHERE subject = ${subject}`
          }
        }
      })

    /** Forgets subjects whose window has passed; any instance may run it at any time. */
    const sweep: Effect.Effect<number, SqlError> = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.map(
        sql`DELETE FROM oauth_sign_in_throttle WHERE expires_at <= ${now} RETURNING subject`,
        (rows) => rows.length
      ))

    return { admit, succeeded, sweep }
  })

export type SignInThrottle = Effect.Effect.Success<ReturnType<typeof makeSignInThrottle>>
