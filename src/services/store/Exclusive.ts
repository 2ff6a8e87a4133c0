import type { SqlClient } from "@effect/sql/SqlClient"

/**
 * Clients whose database no other process can read or write while this one runs: the embedded
 * engine (in memory, or a directory it locks). What such a client last wrote is what its database
 * holds, so a service may keep a summary of its own writes beside it. A PostgreSQL client is never
 * here: several instances share that database, and a summary in one would miss the others' writes.
 */
const exclusive = new WeakSet<SqlClient>()

/** Called by an engine that owns its database alone, with the client it hands out. */
export const markExclusive = (client: SqlClient): SqlClient => {
  exclusive.add(client)
  return client
}

export const isExclusive = (client: SqlClient): boolean => exclusive.has(client)
