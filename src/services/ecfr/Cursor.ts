import { Buffer } from "node:buffer"
import { createHmac, timingSafeEqual } from "node:crypto"

/** What a search cursor carries: the search it continues and the page it points to. */
export interface CursorPosition {
  /** `part:740` or `title:15` */
  readonly scope: string
  readonly q: string
  readonly perPage: number
  readonly page: number
}

export interface CursorCodec {
  readonly encode: (position: CursorPosition) => string
  /** The position, or undefined when the cursor was not issued by this service (or was altered). */
  readonly decode: (cursor: string) => CursorPosition | undefined
}

const maxCursorLength = 2048

/**
 * Opaque cursors: the position as base64url JSON followed by an HMAC-SHA256 tag over it, so a client
 * can neither read meaning into the format nor forge or alter a position.
 */
export const makeCodec = (secret: Uint8Array): CursorCodec => {
  const tag = (payload: string) => createHmac("sha256", secret).update(payload).digest()
  return {
    encode: (position) => {
      const payload = Buffer.from(JSON.stringify([position.scope, position.q, position.perPage, position.page]))
        .toString("base64url")
      return `${payload}.${tag(payload).toString("base64url")}`
    },
    decode: (cursor) => {
      if (cursor.length > maxCursorLength) return undefined
      const [payload, signature, ...rest] = cursor.split(".")
      if (payload === undefined || signature === undefined || rest.length > 0) return undefined
      const given = Buffer.from(signature, "base64url")
      const expected = tag(payload)
      if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) return undefined
      try {
        const [scope, q, perPage, page] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
        if (typeof scope !== "string" || typeof q !== "string") return undefined
        if (!Number.isInteger(perPage) || !Number.isInteger(page) || page < 1 || perPage < 1) return undefined
        return { scope, q, perPage, page }
      } catch {
        return undefined
      }
    }
  }
}
