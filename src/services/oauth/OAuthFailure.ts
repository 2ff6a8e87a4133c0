import { Data } from "effect"
import type { OAuthErrorCode } from "../../domain/OAuth.ts"

/** A refusal the client is told about in RFC 6749 terms: an error code, a description, an HTTP status. */
export class OAuthFailure extends Data.TaggedError("OAuthFailure")<{
  readonly error: OAuthErrorCode
  readonly description: string
  readonly status: number
}> {}

export const oauthFailure = (error: OAuthErrorCode, description: string, status = 400): OAuthFailure =>
  new OAuthFailure({ error, description, status })
