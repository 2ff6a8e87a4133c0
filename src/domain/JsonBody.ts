import { Either, Schema } from "effect"

/**
 * The limits every JSON request body is held to before any handler sees it. Nesting is bounded
 * because every consumer downstream (schema decoding, payload validation, tool arguments) walks the
 * value recursively: a 6 KB body nested 3,000 deep would otherwise overflow the stack. No payload
 * this service accepts nests beyond a dozen levels.
 */
export const MaxJsonDepth = 64

/** The body is larger than the surface accepts (413). */
export class BodyTooLarge extends Schema.TaggedError<BodyTooLarge>()("BodyTooLarge", {
  limitBytes: Schema.Int
}) {}

/** The body could not be read, is not UTF-8 JSON, or nests too deep (400); `reason` completes "The body …". */
export class MalformedBody extends Schema.TaggedError<MalformedBody>()("MalformedBody", {
  reason: Schema.String
}) {}

const Quote = 34
const Backslash = 92
const OpenBrace = 123
const OpenBracket = 91
const CloseBrace = 125
const CloseBracket = 93

/**
 * Whether JSON text opens more than `maxDepth` objects or arrays at once: one pass over the text,
 * skipping strings, without building anything, so it is safe on any input (valid JSON or not).
 */
export const nestsDeeperThan = (text: string, maxDepth: number): boolean => {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === Quote) {
      // skip to the closing quote, stepping over escapes
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i)
        if (inner === Backslash) i++
        else if (inner === Quote) break
      }
    } else if (code === OpenBrace || code === OpenBracket) {
      if (++depth > maxDepth) return true
    } else if (code === CloseBrace || code === CloseBracket) {
      depth--
    }
  }
  return false
}

/** JSON text parsed within `maxDepth` levels of nesting; parser messages are not repeated (they quote the body). */
export const parseJson = (text: string, maxDepth: number = MaxJsonDepth): Either.Either<unknown, MalformedBody> => {
  if (nestsDeeperThan(text, maxDepth)) {
    return Either.left(new MalformedBody({ reason: `nests objects or arrays deeper than ${maxDepth} levels` }))
  }
  try {
    return Either.right(JSON.parse(text) as unknown)
  } catch {
    return Either.left(new MalformedBody({ reason: "is not valid JSON" }))
  }
}
