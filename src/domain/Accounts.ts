import { Schema } from "effect"
import { ClientMetadata } from "./OAuth.ts"
import { Tier } from "./Principal.ts"

/**
 * What the embedded account store keeps. Secrets never appear here: passwords as scrypt hashes,
 * tokens and client secrets as a public identifier plus the SHA-256 of their secret part.
 * Times are milliseconds since the epoch.
 */

/** A sign-in name: one `@`, a dotted domain, no spaces, at most 254 characters (RFC 5321's path limit). */
export const EmailAddress = Schema.String.pipe(
  Schema.maxLength(254),
  Schema.pattern(/^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/, {
    message: () => "must be an e-mail address such as ada@example.com"
  })
)

export const User = Schema.Struct({
  id: Schema.String,
  email: Schema.String.annotations({ description: "Lower-cased sign-in name" }),
  name: Schema.optional(Schema.String),
  tier: Tier,
  passwordHash: Schema.String,
  createdAt: Schema.Number
}).annotations({ identifier: "User" })
export type User = typeof User.Type

export const UsersDocument = Schema.Struct({
  version: Schema.Literal(1),
  users: Schema.Record({ key: Schema.String, value: User })
})
export type UsersDocument = typeof UsersDocument.Type

export const OAuthClient = Schema.Struct({
  clientId: Schema.String,
  issuedAt: Schema.Number,
  secretHash: Schema.optional(Schema.String),
  metadata: ClientMetadata,
  revokedAt: Schema.optional(Schema.Number)
}).annotations({ identifier: "OAuthClient" })
export type OAuthClient = typeof OAuthClient.Type

/** Where a connection came from: the client software as it registered and as it called the token endpoint. */
export const ClientSource = Schema.Struct({
  clientName: Schema.optional(Schema.String),
  applicationType: Schema.String,
  softwareId: Schema.optional(Schema.String),
  softwareVersion: Schema.optional(Schema.String),
  redirectUri: Schema.String,
  userAgent: Schema.optional(Schema.String)
})
export type ClientSource = typeof ClientSource.Type

/** A connection: one user's consent to one client for one resource. Tokens hang off a grant. */
export const Grant = Schema.Struct({
  id: Schema.String,
  clientId: Schema.String,
  userId: Schema.String,
  scopes: Schema.Array(Schema.String),
  resource: Schema.String,
  source: ClientSource,
  createdAt: Schema.Number,
  refreshedAt: Schema.optional(Schema.Number),
  revokedAt: Schema.optional(Schema.Number),
  revokedReason: Schema.optional(Schema.String)
}).annotations({ identifier: "Grant" })
export type Grant = typeof Grant.Type

export const StoredToken = Schema.Struct({
  grantId: Schema.String,
  secretHash: Schema.String,
  expiresAt: Schema.Number,
  /** Refresh tokens only: when it was exchanged for a successor. Presenting it again is reuse. */
  rotatedAt: Schema.optional(Schema.Number)
})
export type StoredToken = typeof StoredToken.Type

export const OAuthDocument = Schema.Struct({
  version: Schema.Literal(1),
  clients: Schema.Record({ key: Schema.String, value: OAuthClient }),
  grants: Schema.Record({ key: Schema.String, value: Grant }),
  accessTokens: Schema.Record({ key: Schema.String, value: StoredToken }),
  refreshTokens: Schema.Record({ key: Schema.String, value: StoredToken })
})
export type OAuthDocument = typeof OAuthDocument.Type
