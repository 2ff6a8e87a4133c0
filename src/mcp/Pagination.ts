import { Buffer } from "node:buffer"
import { ErrorCode, RpcError } from "./JsonRpc.ts"

/**
 * Opaque cursors for the MCP list methods. A cursor names the list it belongs to and the offset of
 * the next page; clients pass it back verbatim. Anything that does not decode to a cursor of this
 * list within its bounds is rejected with -32602, never silently restarted.
 */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | undefined
}

const encodeCursor = (list: string, offset: number) =>
  Buffer.from(JSON.stringify({ l: list, o: offset })).toString("base64url")

const invalidCursor = new RpcError(ErrorCode.InvalidParams, "Invalid params: invalid cursor")

const offsetOf = (list: string, cursor: unknown, size: number): number | RpcError => {
  if (cursor === undefined || cursor === "") return 0
  if (typeof cursor !== "string" || !/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return invalidCursor
  try {
    const decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
    const offset = decoded?.o
    if (decoded?.l !== list || !Number.isInteger(offset) || offset <= 0 || offset >= size) return invalidCursor
    return offset
  } catch {
    return invalidCursor
  }
}

/** One page of `items` (the whole list, in its deterministic order) starting at `cursor`. */
export const paginate = <A>(
  list: string,
  items: ReadonlyArray<A>,
  cursor: unknown,
  pageSize: number
): Page<A> | RpcError => {
  const offset = offsetOf(list, cursor, items.length)
  if (offset instanceof RpcError) return offset
  const end = offset + pageSize
  return { items: items.slice(offset, end), nextCursor: end < items.length ? encodeCursor(list, end) : undefined }
}
