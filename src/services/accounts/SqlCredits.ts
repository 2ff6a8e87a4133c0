import { SqlClient } from "@effect/sql/SqlClient"
import { Duration, Effect, Exit, Layer, Schedule } from "effect"
import { randomUUID } from "node:crypto"
import { StoreUnavailable } from "../../domain/Problem.ts"
import { AppConfig } from "../AppConfig.ts"
import { Credits, type CreditsShape, NoCredits } from "../Credits.ts"

export interface SqlCreditsOptions {
  /**
   * How long a credit debited for a render stays held before it is given back as abandoned (its
   * instance died mid-render). Far above any render's deadline: a render finishing later is
   * delivered free rather than paid twice.
   */
  readonly holdMillis: number
  /** How often each instance gives back abandoned holds. */
  readonly sweepEvery: Duration.DurationInput
}

export const defaultOptions: SqlCreditsOptions = { holdMillis: 15 * 60 * 1000, sweepEvery: "1 minute" }

/**
 * The options for a hold age (`CREDIT_HOLD_SECONDS`): the sweep runs fifteen times per hold age,
 * between once a second and once a minute, so an abandoned credit comes back within a fifteenth of
 * the age after it expires without a short age turning into a busy loop.
 */
export const optionsFor = (holdSeconds: number): SqlCreditsOptions => ({
  holdMillis: holdSeconds * 1000,
  sweepEvery: Duration.millis(Math.min(60_000, Math.max(1_000, (holdSeconds * 1000) / 15)))
})

/**
 * The credit operations on the SQL store. Each is one statement (data-modifying CTEs) or one short
 * transaction, so it is atomic on its own, and exactly-once across instances comes from the
 * database: a debit is a conditional `UPDATE … WHERE balance >= 1`, and a hold is closed (settled or
 * refunded) only by the statement that moves it out of `held`.
 */
export const makeLedger = (options: SqlCreditsOptions = defaultOptions) =>
  Effect.map(SqlClient, (sql) => {
    const balance = (account: string) =>
      Effect.map(
        sql<{ balance: number }>`SELECT balance FROM credit_accounts WHERE account = ${account}`,
        (rows) => rows[0]?.balance ?? 0
      )

    /** Takes one credit into a new hold; `undefined` when the account has none left. */
    const hold = (account: string) =>
      Effect.gen(function*() {
        // from Node's pooled entropy: `randomBytes` asks OpenSSL on every call, about 4 µs a hold
        const holdId = randomUUID()
        const rows = yield* sql<{ balance: number }>`
          WITH debited AS (
            UPDATE credit_accounts SET balance = balance - 1
            WHERE account = ${account} AND balance >= 1
            RETURNING account, balance
          ), held AS (
            INSERT INTO credit_holds (hold_id, account, state, expires_at)
            SELECT ${holdId}, account, 'held', now() + ${options.holdMillis}::double precision * interval '1 millisecond'
            FROM debited
          ), entry AS (
            INSERT INTO credit_ledger (account, delta, kind, hold_id)
            SELECT account, -1, 'debit', ${holdId} FROM debited
          )
          SELECT balance FROM debited`
        return rows.length === 1 ? holdId : undefined
      })

    /**
     * The work was delivered: the hold becomes a paid document of the account. Answers the balance
     * left, which the caller reports, so a paid render reads no balance of its own; `undefined` when
     * the hold was no longer open (the sweep gave it back first).
     */
    const settle = (holdId: string) =>
      Effect.map(
        sql<{ balance: number }>`
          WITH settled AS (
            UPDATE credit_holds SET state = 'settled', closed_at = now()
            WHERE hold_id = ${holdId} AND state = 'held'
            RETURNING account
          )
          UPDATE credit_accounts SET spent = spent + 1, last_spent_at = now()
          FROM settled WHERE credit_accounts.account = settled.account
          RETURNING credit_accounts.balance`,
        (rows) => rows[0]?.balance
      )

    /** The work failed or was abandoned: the credit goes back, once, whoever asks first. */
    const refund = (holdId: string) =>
      sql`
        WITH refunded AS (
          UPDATE credit_holds SET state = 'refunded', closed_at = now()
          WHERE hold_id = ${holdId} AND state = 'held'
          RETURNING account
        ), credited AS (
          UPDATE credit_accounts SET balance = balance + 1
          FROM refunded WHERE credit_accounts.account = refunded.account
        )
        INSERT INTO credit_ledger (account, delta, kind, hold_id)
        SELECT account, 1, 'refund', ${holdId} FROM refunded`

    /** Refunds every hold past its expiry (an instance died mid-render); returns how many. */
    const refundExpired = Effect.map(
      sql<{ holdId: string }>`
        WITH expired AS (
          UPDATE credit_holds SET state = 'refunded', closed_at = now()
          WHERE state = 'held' AND expires_at <= now()
          RETURNING hold_id, account
        ), per_account AS (
          SELECT account, count(*) AS n FROM expired GROUP BY account
        ), credited AS (
          UPDATE credit_accounts SET balance = balance + per_account.n
          FROM per_account WHERE credit_accounts.account = per_account.account
        )
        INSERT INTO credit_ledger (account, delta, kind, hold_id)
        SELECT account, 1, 'refund', hold_id FROM expired
        RETURNING hold_id`,
      (rows) => rows.length
    )

    /** Adds (or removes, never below zero) credits, with the change actually made in the ledger. */
    const add = (account: string, amount: number) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO credit_accounts (account, balance) VALUES (${account}, 0) ON CONFLICT DO NOTHING`
        const [row] = yield* sql<{ balance: number }>`
          SELECT balance FROM credit_accounts WHERE account = ${account} FOR UPDATE`
        const next = Math.max(0, (row?.balance ?? 0) + amount)
        const delta = next - (row?.balance ?? 0)
        if (delta === 0) return next
        yield* sql`UPDATE credit_accounts SET balance = ${next} WHERE account = ${account}`
        yield* sql`INSERT INTO credit_ledger (account, delta, kind)
          VALUES (${account}, ${delta}, ${delta > 0 ? "added" : "removed"})`
        return next
      }))

    const usage = (account: string) =>
      Effect.map(
        sql<{ spent: number; lastSpentAt: Date | null }>`
          SELECT spent, last_spent_at FROM credit_accounts WHERE account = ${account}`,
        (rows) => ({ spent: rows[0]?.spent ?? 0, lastSpentAt: rows[0]?.lastSpentAt?.toISOString() })
      )

    return { balance, hold, settle, refund, refundExpired, add, usage }
  })

export type Ledger = Effect.Effect.Success<ReturnType<typeof makeLedger>>

/**
 * Closing a hold must not turn delivered work into a failure: when the store cannot be reached the
 * hold stays open and the sweep refunds it later (the work is then free, never paid twice).
 */
const closing = <A, E>(what: string, close: Effect.Effect<A, E>): Effect.Effect<A | undefined> =>
  close.pipe(
    Effect.catchAllCause(() =>
      Effect.as(Effect.logWarning(`credit hold could not be ${what}; the sweep refunds it`), undefined)
    )
  )

/** The credit could not be taken: nothing was debited and the work does not start. */
const ledgerUnavailable = Effect.zipRight(
  Effect.logWarning("credit ledger unavailable; the render was refused before it started"),
  Effect.fail(
    new StoreUnavailable({
      detail: "The credit ledger cannot be reached; nothing was charged. Retry in a few seconds."
    })
  )
)

/** `Credits` over the ledger: the service's contract, with the balance shared by every instance. */
export const fromLedger = (ledger: Ledger): CreditsShape => {
  const balance = (account: string) => Effect.orDie(ledger.balance(account))
  /** The paid work, and the balance its settlement reported (`undefined` when it could not). */
  const paid = <A, E, R>(account: string, work: Effect.Effect<A, E, R>) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function*() {
        const holdId = yield* Effect.catchTag(ledger.hold(account), "SqlError", () => ledgerUnavailable)
        // the debit asks for `balance >= 1` and a balance is never negative: a refused hold saw 0
        if (holdId === undefined) return yield* new NoCredits({ balance: 0 })
        const exit = yield* Effect.exit(restore(work))
        if (Exit.isFailure(exit)) {
          yield* closing("refunded", ledger.refund(holdId))
          return yield* Effect.failCause(exit.cause)
        }
        return { value: exit.value, remaining: yield* closing("settled", ledger.settle(holdId)) }
      })
    )
  return {
    balance,
    usage: (account) => Effect.orDie(ledger.usage(account)),
    add: (account, amount) => Effect.orDie(ledger.add(account, amount)),
    spend: (account, work) => Effect.map(paid(account, work), ({ value }) => value),
    charge: (account, work) =>
      Effect.flatMap(paid(account, work), ({ remaining, value }) =>
        // the settlement did not say (unreachable store, or the sweep closed the hold first): ask
        remaining === undefined
          ? Effect.map(balance(account), (left) => ({ value, remaining: left }))
          : Effect.succeed({ value, remaining }))
  }
}

/** Credits in the SQL store, with a background sweep giving back holds of renders that never ended. */
export const layer = (options: SqlCreditsOptions = defaultOptions): Layer.Layer<Credits, never, SqlClient> =>
  Layer.scoped(
    Credits,
    Effect.gen(function*() {
      const ledger = yield* makeLedger(options)
      yield* ledger.refundExpired.pipe(
        Effect.flatMap((refunded) =>
          refunded === 0 ? Effect.void : Effect.logInfo("refunded abandoned credit holds", { refunded })
        ),
        Effect.catchAllCause(() => Effect.logWarning("credit hold sweep failed; retrying on the next run")),
        Effect.repeat(Schedule.spaced(options.sweepEvery)),
        Effect.forkScoped
      )
      return fromLedger(ledger)
    })
  )

/** Credits with the hold age the configuration names (`CREDIT_HOLD_SECONDS`). */
export const layerFromConfig: Layer.Layer<Credits, never, SqlClient | AppConfig> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => layer(optionsFor(config.creditHoldSeconds)))
)
