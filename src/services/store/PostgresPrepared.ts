import pg from "pg"

/** Statements one connection keeps prepared; past this, new statement texts run unnamed. */
export const MaxPrepared = 256

/** Statement texts seen once, remembered to be prepared at their second use; cleared past this. */
const MaxSeenOnce = 1024

// SQLSTATEs after which a named statement is no longer usable: the plan's result type changed under
// it (0A000, a table altered by a newer instance's migration), or the session lost it (26000)
const stale = new Set(["0A000", "26000"])

type Callback = (error: Error | null, result: unknown) => void

/** A plain query through `pg`'s callback or promise API: a text with parameters, not a cursor. */
interface PlainQuery {
  readonly text: string
  readonly values: ReadonlyArray<unknown>
  /** The call's other arguments, passed on as they were. */
  readonly rest: (named: object) => ReadonlyArray<unknown>
  readonly callback: Callback | undefined
}

const isCallback = (value: unknown): value is Callback => typeof value === "function"

const asIs = (named: object): ReadonlyArray<unknown> => [named]

const plainQuery = (config: unknown, values: unknown, callback: unknown): PlainQuery | undefined => {
  // `query(text, values, callback?)`: how @effect/sql-pg and the pool run every statement with parameters
  if (typeof config === "string" && Array.isArray(values) && values.length > 0) {
    return { text: config, values, rest: asIs, callback: isCallback(callback) ? callback : undefined }
  }
  // `query({ text, values, rowMode }, callback?)`: `.values` rows; a named or submittable one stays as it is
  if (
    typeof config === "object" && config !== null && !("submit" in config) && !("name" in config) &&
    "text" in config && typeof config.text === "string" &&
    "values" in config && Array.isArray(config.values) && config.values.length > 0
  ) {
    const cb = isCallback(values) ? values : isCallback(callback) ? callback : undefined
    return { text: config.text, values: config.values, rest: (named) => [{ ...config, ...named }], callback: cb }
  }
  return undefined
}

const codeOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined

/**
 * A `pg` client that runs statements with parameters as named prepared statements, as PostgreSQL
 * drivers such as `postgres` do by default and `pg` does only when each query is given a name.
 * An unnamed statement is parsed, planned and described by the server on every call; a prepared
 * one is bound and executed, which takes about a quarter of the server's time off a short write
 * such as a credit hold and one message less each way.
 *
 * Each connection prepares a text at its second use (a text built for one call, such as a bulk
 * insert of n rows, never is) and keeps at most `MaxPrepared`; past that, new texts run unnamed as
 * before, so the server's memory per connection stays bounded without closing statements while
 * other queries may be queued on the connection. A statement the server no longer accepts (a
 * migration changed its result, or the session lost it) is prepared afresh under a new name and
 * run once more, as `PglitePrepared` does. Statements without parameters (`BEGIN`, migration scripts of
 * several statements) run as simple queries, as `pg` runs them.
 */
export class PreparingClient extends pg.Client {
  readonly #prepared = new Map<string, string>()
  readonly #seenOnce = new Set<string>()
  #counter = 0

  constructor(config?: string | pg.ClientConfig) {
    super(config)
    const plain = pg.Client.prototype.query
    // `pg`'s `query` is a dozen overloads; this one forwards every call to them unchanged except
    // for naming a plain statement, so its own signature is the same set
    this.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      const query = plainQuery(config, values, callback)
      const name = query === undefined ? undefined : this.#nameOf(query.text)
      if (query === undefined || name === undefined) return Reflect.apply(plain, this, [config, values, callback])
      if (query.callback !== undefined) return this.#run(plain, query, name, false, query.callback)
      return new Promise((resolve, reject) =>
        this.#run(plain, query, name, false, (error, result) => error === null ? resolve(result) : reject(error))
      )
    }) as pg.Client["query"]
  }

  /**
   * Runs `query` under `name` (unnamed when `undefined`). Stale: prepared afresh and run once more,
   * as an unnamed statement would have run (in a transaction the first failure already aborted it,
   * and the retry reports that).
   */
  #run(
    plain: typeof pg.Client.prototype.query,
    query: PlainQuery,
    name: string | undefined,
    retried: boolean,
    done: Callback
  ): void {
    const text = { text: query.text, values: query.values }
    Reflect.apply(plain, this, [
      ...query.rest(name === undefined ? text : { name, ...text }),
      (error: Error | null, result: unknown) => {
        if (error !== null && !retried && name !== undefined && stale.has(codeOf(error) ?? "")) {
          return this.#run(plain, query, this.#renamed(query.text, name), true, done)
        }
        done(error, result)
      }
    ])
  }

  /**
   * A new name for `text`, whose statement under `stale` the server no longer accepts (that one
   * stays on the server until the connection closes: one per schema change, never run again), or
   * `undefined` to run it unnamed when the table is full.
   */
  #renamed(text: string, stale: string): string | undefined {
    if (this.#prepared.get(text) === stale) this.#prepared.delete(text)
    if (this.#prepared.size >= MaxPrepared) return undefined
    const name = `ecds_${++this.#counter}`
    this.#prepared.set(text, name)
    return name
  }

  /** The name to prepare `text` under on this connection, or `undefined` to run it unnamed. */
  #nameOf(text: string): string | undefined {
    const known = this.#prepared.get(text)
    if (known !== undefined) return known
    if (this.#prepared.size >= MaxPrepared) return undefined
    if (!this.#seenOnce.has(text)) {
      if (this.#seenOnce.size >= MaxSeenOnce) this.#seenOnce.clear()
      this.#seenOnce.add(text)
      return undefined
    }
    this.#seenOnce.delete(text)
    // never reused: a name the server may still hold is never asked to mean another text
    const name = `ecds_${++this.#counter}`
    this.#prepared.set(text, name)
    return name
  }
}
