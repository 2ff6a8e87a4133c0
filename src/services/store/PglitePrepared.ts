import { parse, type PGlite, protocol, type Results } from "@electric-sql/pglite"

type BackendMessage = Parameters<typeof parse.parseResults>[0][number]

interface Prepared {
  readonly name: string
  readonly parameterTypes: ReadonlyArray<number>
  /** The statement's row description (absent for a statement without rows). */
  readonly rows: BackendMessage | undefined
  /** When it last ran, in calls of this connection: the least recently used one is evicted. */
  lastUsed: number
}

/** Statements kept prepared at once; the least recently used one is closed past this. */
export const MaxPrepared = 200

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

// SQLSTATEs after which a prepared statement is no longer usable as prepared: the plan's result
// type changed under it (0A000, a table altered), or the session lost it (26000)
const stale = new Set(["0A000", "26000"])

/**
 * Parameterized statements on PGlite as named prepared statements, the way the PostgreSQL layer
 * runs them on a server (`PostgresPrepared`). PGlite's own `query` parses, plans
 * and describes the text on every call, in six round trips into the WASM engine (about 0.3 ms of
 * CPU for an indexed lookup); a prepared statement is bound and executed in one (about 0.06 ms).
 * This is the connection's statement table, not a cache of answers: every call runs the statement.
 *
 * The caller serializes calls (PGlite is one connection, held by one statement at a time).
 */
export const makePrepared = (db: PGlite) => {
  const statements = new Map<string, Prepared>()
  let counter = 0
  let calls = 0
  // what follows every bind, the same bytes each time
  const executeAndSync = concat([protocol.serialize.execute({}), protocol.serialize.sync()])
  // names of evicted statements, closed with the next message sent
  let closing: Array<Uint8Array> = []

  // a use stamp rather than moving the entry to the Map's end on every call: deleting and adding
  // again leaves holes the Map reallocates its table to clear, garbage on every statement
  const evictLeastRecentlyUsed = () => {
    let oldest: [string, Prepared] | undefined
    for (const entry of statements) {
      if (oldest === undefined || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry
    }
    if (oldest === undefined) return
    statements.delete(oldest[0])
    closing.push(protocol.serialize.close({ type: "S", name: oldest[1].name }))
  }

  const prepare = async (sql: string): Promise<Prepared> => {
    const name = `ecds_${++counter}`
    const pending = closing
    closing = []
    const answer = await db.execProtocol(
      concat([
        ...pending,
        protocol.serialize.parse({ name, text: sql }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync()
      ])
    )
    const parameters = answer.messages.find((message) => message.name === "parameterDescription")
    const prepared: Prepared = {
      name,
      parameterTypes: parameters === undefined ? [] : parse.parseDescribeStatementResults([parameters]),
      rows: answer.messages.find((message) => message.name === "rowDescription"),
      lastUsed: calls
    }
    statements.set(sql, prepared)
    if (statements.size > MaxPrepared) evictLeastRecentlyUsed()
    return prepared
  }

  const run = async (
    prepared: Prepared,
    params: ReadonlyArray<unknown>,
    rowMode: "array" | undefined
  ): Promise<Results<unknown>> => {
    // parameters are serialized by their described types, exactly as PGlite's `query` does
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null
      const serialize = db.serializers[prepared.parameterTypes[index]!]
      return serialize ? serialize(param) : String(param)
    })
    // no `syncToFs`: the file systems this adapter opens (a directory through Node's fs, or memory)
    // write through and their sync does nothing, yet asking for it costs a mutex round and its
    // promises, about 4 KB of garbage per statement
    const answer = await db.execProtocol(
      concat([protocol.serialize.bind({ statement: prepared.name, values }), executeAndSync]),
      { syncToFs: false }
    )
    const messages = prepared.rows === undefined ? answer.messages : [prepared.rows, ...answer.messages]
    return parse.parseResults(messages, db.parsers, rowMode === undefined ? undefined : { rowMode })[0]!
  }

  /** Closes every statement: after a schema change a statement's parameter types may be stale. */
  const forget = () => {
    for (const prepared of statements.values()) {
      closing.push(protocol.serialize.close({ type: "S", name: prepared.name }))
    }
    statements.clear()
  }

  const query = async (
    sql: string,
    params: ReadonlyArray<unknown>,
    rowMode?: "array"
  ): Promise<Results<unknown>> => {
    calls++
    let prepared = statements.get(sql)
    if (prepared === undefined) prepared = await prepare(sql)
    else prepared.lastUsed = calls
    try {
      return await run(prepared, params, rowMode)
    } catch (error) {
      const code = (error as { readonly code?: unknown }).code
      if (typeof code !== "string" || !stale.has(code)) throw error
      statements.delete(sql)
      closing.push(protocol.serialize.close({ type: "S", name: prepared.name }))
      return await run(await prepare(sql), params, rowMode)
    }
  }

  return { query, forget }
}

/**
 * Whether a statement or script may change a table's shape. PostgreSQL re-plans a prepared
 * statement when its tables change, but keeps the parameter types it inferred at preparation: a
 * column whose type changed would then reject a value it now accepts.
 */
export const changesSchema = (sql: string): boolean => /\b(create|alter|drop)\b/i.test(sql)
