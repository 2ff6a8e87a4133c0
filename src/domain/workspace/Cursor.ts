import { Either, Schema } from "effect"

/**
 * Opaque keyset cursors of the workspace lists: the sort key of the last row shown, as base64url
 * JSON. A list resumes strictly after it, so rows written meanwhile never repeat or skip a page.
 */
const Position = Schema.parseJson(Schema.Array(Schema.String).pipe(Schema.minItems(1), Schema.maxItems(4)))

const decodePosition = Schema.decodeUnknownEither(Position)

export const encodeCursor = (position: ReadonlyArray<string>): string =>
  Buffer.from(JSON.stringify(position), "utf8").toString("base64url")

/** The position a cursor names, when it has `size` keys; `undefined` when it is not one this list issued. */
export const decodeCursor = (cursor: string, size: number): ReadonlyArray<string> | undefined => {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined
  const decoded = decodePosition(Buffer.from(cursor, "base64url").toString("utf8"))
  return Either.isRight(decoded) && decoded.right.length === size ? decoded.right : undefined
}
