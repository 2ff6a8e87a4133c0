import { SqlClient } from "@effect/sql/SqlClient"
import { Data, Effect, Layer, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { OAuthDocument, UsersDocument } from "../../domain/Accounts.ts"
import { AppConfig } from "../AppConfig.ts"
import { DocumentNames } from "./SqlDocument.ts"

/** The JSON files of DATA_DIR could not be read or do not decode: the start stops rather than lose them. */
export class JsonImportError extends Data.TaggedError("JsonImportError")<{ readonly message: string }> {}

/**
 * What the stores before the SQL store kept, as their code wrote it: `keys.json`, `credits.json`,
 * `accounts/users.json` and `accounts/oauth.json` (the last two with the schemas that still
 * describe those documents).
 */
const KeysFile = Schema.Struct({
  keys: Schema.Array(Schema.Struct({
    keyId: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{12}$/)),
    hash: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
    status: Schema.Literal("active", "inactive", "billing_issue"),
    plan: Schema.String,
    label: Schema.String,
    createdAt: Schema.DateFromString
  }))
})

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

const CreditsFile = Schema.Struct({
  balances: Schema.Record({ key: Schema.String, value: Count }),
  usage: Schema.optional(Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ spent: Count, lastSpentAt: Schema.DateFromString })
  }))
})

export interface ImportSummary {
  readonly keys: number
  readonly creditAccounts: number
  readonly credits: number
  readonly users: number
  readonly clients: number
}

/** The import's row in `store_imports`: present once the files were imported (or found absent). */
export const importName = "data_dir_json"

const readJson = <A, I>(path: string, schema: Schema.Schema<A, I>) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (error) => error
  }).pipe(
    Effect.map((text) => ({ text })),
    Effect.catchIf(
      (error) => (error as { code?: string } | undefined)?.code === "ENOENT",
      () => Effect.succeed(undefined)
    ),
    Effect.mapError(() => new JsonImportError({ message: `cannot read ${path}` })),
    Effect.flatMap((file) =>
      file === undefined ? Effect.succeed(undefined) : Schema.decodeUnknown(Schema.parseJson(schema))(file.text).pipe(
        Effect.mapError(() =>
          new JsonImportError({ message: `${path} does not hold what the previous version wrote; fix or move it` })
        )
      )
    )
  )

/**
 * Brings the JSON files of DATA_DIR (API keys, credit balances and usage, development users, OAuth
 * clients with their connections and tokens) into an empty SQL store,
 * once per store: under an advisory lock, so instances starting together import once, and recorded
 * in `store_imports`, so the next start imports nothing. A store that already holds keys or credits
 * is never overwritten (the files are then only noted as skipped). The files stay where they are.
 */
export const importDataDir = (dataDir: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const recorded = sql`SELECT 1 FROM store_imports WHERE import_name = ${importName}`
    // once imported, the files (left in place) are not read again: one damaged since never stops a start
    if ((yield* recorded).length > 0) return undefined
    const keys = yield* readJson(join(dataDir, "keys.json"), KeysFile)
    const credits = yield* readJson(join(dataDir, "credits.json"), CreditsFile)
    const users = yield* readJson(join(dataDir, "accounts", "users.json"), UsersDocument)
    const oauth = yield* readJson(join(dataDir, "accounts", "oauth.json"), OAuthDocument)
    const documents = [
      { name: DocumentNames.users, body: users === undefined ? undefined : Schema.encodeSync(UsersDocument)(users) },
      // its clients go to their own table (below); the document keeps connections and tokens
      {
        name: DocumentNames.oauth,
        body: oauth === undefined ? undefined : Schema.encodeSync(OAuthDocument)({ ...oauth, clients: {} })
      }
    ]
    const found = [keys, credits, users, oauth].some((file) => file !== undefined)
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext('ecds:import:data_dir_json'))`
      if ((yield* recorded).length > 0) return undefined
      const [held] = yield* sql<{ rows: number }>`
        SELECT (SELECT count(*) FROM api_keys) + (SELECT count(*) FROM credit_accounts)
          + (SELECT count(*) FROM store_documents) + (SELECT count(*) FROM oauth_clients) AS rows`
      const empty = held !== undefined && held.rows === 0
      const summary: ImportSummary = empty
        ? {
          keys: keys?.keys.length ?? 0,
          ...creditTotals(credits),
          users: Object.keys(users?.users ?? {}).length,
          clients: Object.keys(oauth?.clients ?? {}).length
        }
        : { keys: 0, creditAccounts: 0, credits: 0, users: 0, clients: 0 }
      if (empty && keys !== undefined && keys.keys.length > 0) {
        yield* sql`INSERT INTO api_keys ${
          sql.insert(keys.keys.map((key) => ({
            keyId: key.keyId,
            keyHash: key.hash,
            status: key.status,
            plan: key.plan,
            label: key.label,
            createdAt: key.createdAt
          })))
        } ON CONFLICT DO NOTHING`
      }
      if (empty && credits !== undefined) {
        const accounts = new Set([...Object.keys(credits.balances), ...Object.keys(credits.usage ?? {})])
        for (const account of accounts) {
          const balance = credits.balances[account] ?? 0
          const usage = credits.usage?.[account]
          yield* sql`INSERT INTO credit_accounts ${
            sql.insert({ account, balance, spent: usage?.spent ?? 0, lastSpentAt: usage?.lastSpentAt ?? null })
          }`
          if (balance > 0) {
            yield* sql`INSERT INTO credit_ledger (account, delta, kind) VALUES (${account}, ${balance}, 'imported')`
          }
        }
      }
      for (const document of documents) {
        if (!empty || document.body === undefined) continue
        yield* sql`INSERT INTO store_documents (name, version, body)
          VALUES (${document.name}, 1, ${JSON.stringify(document.body)}::jsonb)`
      }
      if (empty && oauth !== undefined) {
        const grants = Object.values(oauth.grants)
        for (const client of Object.values(oauth.clients)) {
          const connected = grants.filter((grant) => grant.clientId === client.clientId).map((grant) => grant.createdAt)
          yield* sql`INSERT INTO oauth_clients ${
            sql.insert({
              clientId: client.clientId,
              issuedAt: client.issuedAt,
              secretHash: client.secretHash ?? null,
              metadata: JSON.stringify(client.metadata),
              revokedAt: client.revokedAt ?? null,
              connectedAt: connected.length === 0 ? null : Math.max(...connected)
            })
          }`
        }
      }
      yield* sql`INSERT INTO store_imports ${
        sql.insert({ importName, summary: JSON.stringify({ ...summary, storeWasEmpty: empty }) })
      }`
      return { summary, skipped: !empty && found }
    }))
  })

const creditTotals = (credits: typeof CreditsFile.Type | undefined) => {
  if (credits === undefined) return { creditAccounts: 0, credits: 0 }
  const accounts = new Set([...Object.keys(credits.balances), ...Object.keys(credits.usage ?? {})])
  return {
    creditAccounts: accounts.size,
    credits: Object.values(credits.balances).reduce((sum, balance) => sum + balance, 0)
  }
}

/** Runs the import at start, before any account service reads the store, and says once what it did. */
export const layer: Layer.Layer<never, JsonImportError, SqlClient | AppConfig> = Layer.effectDiscard(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const outcome = yield* importDataDir(config.dataDir).pipe(
      Effect.catchTag(
        "SqlError",
        () =>
          Effect.fail(new JsonImportError({ message: "the store refused the import of the DATA_DIR account files" }))
      )
    )
    if (outcome === undefined) return
    if (outcome.skipped) {
      yield* Effect.logWarning("the store already holds accounts; the DATA_DIR account files were not imported")
    } else if (Object.values(outcome.summary).some((count) => count > 0)) {
      const { clients, creditAccounts, credits, keys, users } = outcome.summary
      yield* Effect.logInfo(
        `imported ${keys} keys, ${creditAccounts} credit accounts (${credits} credits), ${users} users and ` +
          `${clients} OAuth clients from the DATA_DIR account files`
      )
    }
  })
)
